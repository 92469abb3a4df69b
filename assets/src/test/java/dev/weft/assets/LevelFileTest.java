package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LevelFileTest {

    @Test
    void demoLevelHasEveryKindOfAssetAndAllFilesExist() {
        LevelFile level = TestResources.level("demo");
        assertEquals(List.of("grass", "stone", "bricks", "checker", "metal", "height", "moss"), names(level.textures()));
        assertEquals(List.of("terrain", "sphere", "torus", "rock", "pillar"), names(level.meshes()));
        assertEquals(List.of("terrain_col", "rock_col", "pillar_col"), names(level.derived()));
        assertEquals(28, level.entities().size());
        for (LevelAsset asset : level.assets()) {
            if (!asset.kind().isDerived()) {
                String resource = LevelResources.assetFile("demo", asset);
                assertTrue(TestResources.exists(resource), "missing " + resource);
            }
        }
        assertEquals(List.of("rock"), names(level.dependenciesOf("rock_col")));
        assertEquals(List.of("rock_col"), names(level.dependentsOf("rock")));
        LevelEntity ground = level.entities().get(0);
        assertEquals(new LevelEntity("ground", "terrain", "grass", "terrain_col", 0, 0, 0, ground.line()), ground);
    }

    @Test
    void tinyLevelParses() {
        LevelFile level = TestResources.level("tiny");
        assertEquals(3, level.textures().size());
        assertEquals(3, level.meshes().size());
        assertEquals(2, level.derived().size());
        assertEquals(List.of("ground", "ball", "post"), level.entities().stream().map(LevelEntity::name).toList());
        assertEquals(null, level.entities().get(1).collision());
    }

    @Test
    void loadOrderPutsEveryAssetAfterItsDependencies() {
        LevelFile level = LevelFile.parse("fwd.level", """
                weft-level 1
                collision c from m
                texture t textures/t.png
                mesh m meshes/m.obj
                """);
        assertEquals(List.of("m", "c", "t"), names(level.loadOrder()));
        for (String name : List.of("demo", "tiny")) {
            Set<String> loaded = new HashSet<>();
            for (LevelAsset asset : TestResources.level(name).loadOrder()) {
                assertTrue(loaded.containsAll(asset.dependsOn()), asset + " before its dependencies");
                loaded.add(asset.name());
            }
        }
    }

    @Test
    void commentsBlankLinesAndCrlfAreIgnored() {
        LevelFile level = LevelFile.parse("crlf.level",
                "# leading comment\r\n\r\nweft-level 1   # header\r\n\ttexture  a   textures/a.png\t# trailing\r\n");
        assertEquals(List.of("a"), names(level.textures()));
        assertEquals("textures/a.png", level.textures().get(0).path());
        assertEquals(4, level.textures().get(0).line());
    }

    @Test
    void unknownAssetNamesFileLineAndStatement() {
        assertError("demo.level:4: unknown asset 'foo' in 'collision rock_col from foo'", """
                weft-level 1
                mesh rock meshes/rock.obj
                # a comment keeps line numbers honest
                collision rock_col from foo
                """);
        assertError("e.level:4: unknown asset 'grss' in 'entity r mesh=rock texture=grss 1 2 3'", """
                weft-level 1
                mesh rock meshes/rock.obj
                texture grass textures/grass.png
                entity r mesh=rock texture=grss 1 2 3
                """, "e.level");
    }

    @Test
    void cycleIsNamedWithItsLines() {
        assertError("demo.level:2: dependency cycle: a (line 2) -> b (line 3) -> a", """
                weft-level 1
                collision a from b
                collision b from a
                """);
        assertError("demo.level:3: dependency cycle: c (line 3) -> d (line 4) -> e (line 5) -> c", """
                weft-level 1
                mesh m meshes/m.obj
                collision c from d
                collision d from e
                collision e from c
                """);
        assertError("demo.level:2: dependency cycle: self (line 2) -> self", """
                weft-level 1
                collision self from self
                """);
    }

    @Test
    void referencesMustPointAtTheRightKind() {
        assertError("demo.level:3: 'grass' is a texture but 'from' needs a mesh in 'collision c from grass'", """
                weft-level 1
                texture grass textures/grass.png
                collision c from grass
                """);
        assertError("demo.level:4: 'm' is a mesh but 'texture=' needs a texture in 'entity e mesh=m texture=m 0 0 0'", """
                weft-level 1
                mesh m meshes/m.obj
                texture t textures/t.png
                entity e mesh=m texture=m 0 0 0
                """);
        assertError("demo.level:4: 't' is a texture but 'collision=' needs a collision in 'entity e mesh=m texture=t collision=t 0 0 0'", """
                weft-level 1
                mesh m meshes/m.obj
                texture t textures/t.png
                entity e mesh=m texture=t collision=t 0 0 0
                """);
    }

    @Test
    void syntaxErrorsNameTheLine() {
        assertError("demo.level:1: expected header 'weft-level 1' before 'texture a textures/a.png'", "texture a textures/a.png\n");
        assertError("demo.level:1: empty level file, expected 'weft-level 1'", "# nothing\n\n");
        assertError("demo.level:2: unknown statement 'sound' in 'sound boom sounds/boom.ogg'", "weft-level 1\nsound boom sounds/boom.ogg\n");
        assertError("demo.level:2: expected 'texture <name> <path>' but got 'texture a'", "weft-level 1\ntexture a\n");
        assertError("demo.level:2: expected 'collision <name> from <mesh>' but got 'collision c of m'", "weft-level 1\ncollision c of m\n");
        assertError("demo.level:3: duplicate asset 'a' (first declared on line 2)",
                "weft-level 1\ntexture a textures/a.png\nmesh a meshes/a.obj\n");
        assertError("demo.level:2: bad name '9lives' in 'mesh 9lives meshes/cat.obj' (letters, digits, _ . -; at most 64)",
                "weft-level 1\nmesh 9lives meshes/cat.obj\n");
        assertError("demo.level:3: header repeated: 'weft-level 1'", "weft-level 1\n\nweft-level 1\n");
    }

    @Test
    void pathsMustBeRelativeAndHaveTheKindsExtension() {
        for (String path : List.of("../secret.png", "/abs/a.png", "textures\\a.png", "textures/a.jpg", "textures//a.png")) {
            AssetFormatException e = assertThrows(AssetFormatException.class,
                    () -> LevelFile.parse("p.level", "weft-level 1\ntexture a " + path + "\n"));
            assertTrue(e.getMessage().startsWith("p.level:2: bad path '" + path + "'"), e.getMessage());
            assertEquals(2, e.line());
            assertEquals("p.level", e.file());
        }
    }

    @Test
    void entitiesNeedMeshTextureAndThreeFiniteCoordinates() {
        String assets = "weft-level 1\nmesh m meshes/m.obj\ntexture t textures/t.png\n";
        assertError("demo.level:4: entity 'e' has no texture= in 'entity e mesh=m 0 0 0'", assets + "entity e mesh=m 0 0 0\n");
        assertError("demo.level:4: bad coordinate 'NaN' in 'entity e mesh=m texture=t 0 NaN 0'",
                assets + "entity e mesh=m texture=t 0 NaN 0\n");
        assertError("demo.level:4: bad coordinate '1f' in 'entity e mesh=m texture=t 1f 0 0'",
                assets + "entity e mesh=m texture=t 1f 0 0\n");
        assertError("demo.level:4: bad coordinate '1e99' in 'entity e mesh=m texture=t 0 0 1e99'",
                assets + "entity e mesh=m texture=t 0 0 1e99\n");
        assertError("demo.level:4: expected mesh=, texture= or collision= but got 'sound=x' in 'entity e mesh=m texture=t sound=x 0 0 0'",
                assets + "entity e mesh=m texture=t sound=x 0 0 0\n");
        assertError("demo.level:4: 'mesh=' given twice in 'entity e mesh=m mesh=m texture=t 0 0 0'",
                assets + "entity e mesh=m mesh=m texture=t 0 0 0\n");
        assertError("demo.level:5: duplicate entity 'e' (first declared on line 4)",
                assets + "entity e mesh=m texture=t 0 0 0\nentity e mesh=m texture=t 1 0 0\n");
        LevelEntity e = LevelFile.parse("ok.level", assets + "entity e texture=t mesh=m -1.5 +2 .25e1\n").entities().get(0);
        assertEquals(List.of(-1.5f, 2f, 2.5f), List.of(e.xM(), e.yM(), e.zM()));
    }

    /**
     * A forgotten or extra coordinate is named as one. The last three tokens were taken as the position
     * whatever they were, so 'entity e mesh=m texture=t 1 2' was reported as having no texture= (its
     * texture= had been read as the x), and with a collision= as the bad coordinate 'collision=c'.
     */
    @Test
    void aMissingOrExtraCoordinateIsReportedAsSuch() {
        String assets = "weft-level 1\nmesh m meshes/m.obj\ntexture t textures/t.png\n";
        assertError("demo.level:4: entity 'e' has 2 coordinates, needs 3 (<x> <y> <z>) in 'entity e mesh=m texture=t 1 2'",
                assets + "entity e mesh=m texture=t 1 2\n");
        assertError("demo.level:4: entity 'e' has 2 coordinates, needs 3 (<x> <y> <z>) in 'entity e mesh=m texture=t collision=c 1 2'",
                assets + "entity e mesh=m texture=t collision=c 1 2\n");
        assertError("demo.level:4: entity 'e' has 4 coordinates, needs 3 (<x> <y> <z>) in 'entity e mesh=m texture=t 1 2 3 4'",
                assets + "entity e mesh=m texture=t 1 2 3 4\n");
        assertError("demo.level:4: entity 'e' has 0 coordinates, needs 3 (<x> <y> <z>) in 'entity e mesh=m texture=t collision=c'",
                assets + "entity e mesh=m texture=t collision=c\n");
        assertError("demo.level:4: expected mesh=, texture= or collision= but got 'oops' in 'entity e mesh=m oops texture=t 0 0 0'",
                assets + "entity e mesh=m oops texture=t 0 0 0\n");
    }

    /**
     * A 200,000-digit coordinate that fails at its last character is rejected in one pass. The regex
     * used to split the digit run every way before failing (quadratic: 100k digits took 95 s); the
     * preemptive timeout only guards against that hang, with a wide margin, and never times speed.
     */
    @Test
    void aHugeBadCoordinateIsRejectedWithoutBacktracking() {
        String assets = "weft-level 1\nmesh m meshes/m.obj\ntexture t textures/t.png\n";
        for (String end : new String[] {"x", ".5x", "e", "-"}) {
            String huge = "1".repeat(200_000) + end;
            AssetFormatException e = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                    java.time.Duration.ofSeconds(20),
                    () -> assertThrows(AssetFormatException.class, () -> LevelFile.parse("huge.level",
                            assets + "entity e mesh=m texture=t 0 " + huge + " 0\n")));
            assertTrue(e.getMessage().startsWith("huge.level:4: bad coordinate '111"), e.getMessage());
            assertTrue(e.getMessage().length() < 400, "the message shortens the token: " + e.getMessage().length());
        }
    }

    /**
     * A level file's bad bytes are quoted escaped, as an OBJ's are: a probe's file with an escape sequence in
     * a name, and a binary file loaded as a level, put ESC, BEL and NUL raw into the failure a game logs
     * (its terminal cleared; 6 of 6 messages).
     */
    @Test
    void controlCharactersAreEscapedInMessages() {
        assertError("demo.level:2: bad name 'g\\x1b[2J\\x07' in 'texture g\\x1b[2J\\x07 textures/g.png' (letters, digits,"
                + " _ . -; at most 64)", "weft-level 1\ntexture g\u001b[2J\u0007 textures/g.png\n");
        assertError("demo.level:1: expected header 'weft-level 1' before '\\x1b[31mX\\x00\\x00\\x01\\x02\\x9b'",
                "\u001b[31mX\u0000\u0000\u0001\u0002\u009b\n");
        assertError("demo.level:2: unknown statement 'caf\u00e9' in 'caf\u00e9 x'", "weft-level 1\ncaf\u00e9 x\n");  // text, not control
    }

    private static void assertError(String expected, String text) {
        assertError(expected, text, "demo.level");
    }

    private static void assertError(String expected, String text, String file) {
        AssetFormatException e = assertThrows(AssetFormatException.class, () -> LevelFile.parse(file, text));
        assertEquals(expected, e.getMessage());
        assertEquals(file, e.file());
        assertEquals(Integer.parseInt(expected.split(":")[1]), e.line());
    }

    private static List<String> names(List<LevelAsset> assets) {
        return assets.stream().map(LevelAsset::name).toList();
    }
}
