package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** {@link LevelFileSalvage} on its own: which repairs it makes, and what they cost. */
class LevelFileSalvageTest {
    private static final CodecRegistry CODECS = CodecRegistry.defaults();

    /**
     * Repairs cost a bounded number of whole-text parses, not one each: repairing one error at a time
     * parsed a 20,000-line file with 150 bad lines once per repair (10 s). No clock: parses are counted.
     */
    @Test
    void repairsCostAFewParsesWhateverTheirNumber() {
        for (int errors : new int[] {1, 8, 40, 150}) {
            LevelFileSalvage.Result r = LevelFileSalvage.parse("big", "big.level", BrokenLevels.level(6_000, errors), CODECS);
            assertTrue(r.failures().size() >= errors, errors + " bad lines, repairs: " + r.failures().size());
            System.out.println(errors + " bad lines: " + r.failures().size() + " repairs, " + r.parses() + " parses");
            // At most the strict parse that failed, one round, the strict parse of the repaired text.
            assertTrue(r.parses() <= 3, errors + " bad lines, " + r.failures().size() + " repairs, " + r.parses() + " parses");
        }
        assertEquals(1, LevelFileSalvage.parse("good", "good.level", BrokenLevels.level(6_000, 0), CODECS).parses());
    }

    /** A file of thousands of bad lines is refused at the 201st repair, within the first round. */
    @Test
    void aFileOfThousandsOfErrorsIsRefused() {
        AssetFormatException e = assertThrows(AssetFormatException.class,
                () -> LevelFileSalvage.parse("big", "big.level", BrokenLevels.level(6_000, 5_000), CODECS));
        assertTrue(e.getMessage().startsWith("big.level: more than " + LevelFileSalvage.MAX_REPAIRS
                + " errors (the first: big.level:2: bad coordinate 'zero'"), e.getMessage());
    }

    /** The big file of {@link SalvageTiming}, small enough for the one-by-one oracle: the same repairs. */
    @Test
    void bigBrokenFilesAreRepairedAsOneErrorAtATimeRepairedThem() {
        for (int errors : new int[] {8, 60, 150, 201}) {
            assertSameAsOneByOne(BrokenLevels.level(1_500, errors));
        }
    }

    /**
     * Random bad lines, drawn from a pool whose repairs interact (a line repaired into a duplicate, a name
     * unknown on two lines, an entity with three bad references, cycles, names the salvage uses itself):
     * the same repairs, in the same order, with the same messages, as repairing one error at a time and
     * parsing again; or the same refusal.
     */
    @Test
    void randomBrokenFilesAreRepairedAsOneErrorAtATimeRepairedThem() {
        for (int seed = 0; seed < 400; seed++) {
            assertSameAsOneByOne(randomLevel(new Random(seed)));
        }
    }

    private static void assertSameAsOneByOne(byte[] level) {
        String text = new String(level, StandardCharsets.UTF_8);
        assertEquals(outcome(() -> {
            OneByOneSalvage.Result r = OneByOneSalvage.parse("lvl", "lvl.level", level, CODECS);
            return describe(r.level(), r.failures(), r.placeholders());
        }), outcome(() -> {
            LevelFileSalvage.Result r = LevelFileSalvage.parse("lvl", "lvl.level", level, CODECS);
            return describe(r.level(), r.failures(), r.placeholders());
        }), text);
    }

    private static String outcome(Supplier<String> salvage) {
        try {
            return salvage.get();
        } catch (AssetFormatException e) {
            return "refused: " + e.getMessage();
        }
    }

    private static String describe(LevelFile level, List<LoadFailure> failures, Set<String> placeholders) {
        StringBuilder s = new StringBuilder();
        failures.forEach(f -> s.append(f.file()).append(" | ").append(f.line()).append(" | ").append(f.message()).append('\n'));
        s.append("placeholders ").append(new TreeSet<>(placeholders)).append('\n');
        s.append("assets ").append(level.assets()).append('\n');
        s.append("order ").append(level.loadOrder()).append('\n');
        s.append("entities ").append(level.entities()).append('\n');
        return s.toString();
    }

    private static final String[] POOL = {
        "mesh mX meshes/x.gltf", "mesh mX meshes/x.obj", "texture tX textures/x.jpg", "texture tX textures/x.png",
        "texture tX textures/x.png extra", "collision cX mX", "collision cX from mX", "collision cX from cY",
        "collision cY from cX", "collision cZ from cZ", "collision cX from t1", "collision cY from ghost",
        "entity eX mesh=ghostA texture=ghostB collision=ghostC 0 0 0", "entity eX mesh=m1 texture=t1 0 0 zero",
        "entity eX mesh=m1 texture=t1 1 1 1", "entity eY mesh=t1 texture=m1 collision=m1 0 0 0",
        "entity eY mesh=nope texture=nope 0 0 0", "entity eZ mesh=m1 texture=t1 collision=cX 0 0 0",
        "entity eZ mesh=mX texture=tX collision=cY 2 2 2", "entity e1 mesh=m1 texture=t1 0 0 0",
        "entity eW mesh=ghostA texture=t1 collision=ghostA 0 0 0", "entity eV mesh=m1 texture=t1 0 0",
        "sound s sounds/s.ogg", "weft-level 1", "texture 9bad textures/x.png", "mesh __placeholder_cube meshes/c.obj",
        "texture __placeholder_mesh textures/p.png", "entity eU mesh=m1 texture=t1 collision=c1 x=1 0 0 0",
        "mesh m1 meshes/again.obj", "collision c1 from m2", "entity eT mesh=m1 texture=t1 collision=t1 3 3 3",
    };

    private static byte[] randomLevel(Random random) {
        List<String> lines = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            lines.add("texture t" + i + " textures/t" + i + ".png");
            lines.add("mesh m" + i + " meshes/m" + i + ".obj");
            lines.add("collision c" + i + " from m" + i);
            lines.add("entity e" + i + " mesh=m" + i + " texture=t" + i + " collision=c" + i + " " + i + " 0 0");
        }
        int bad = 1 + random.nextInt(14);
        for (int b = 0; b < bad; b++) {
            String line = POOL[random.nextInt(POOL.length)];
            if (random.nextInt(3) == 0) {                    // vary the names, so some repeat and some do not
                line = line.replace("X", "" + random.nextInt(3)).replace("Y", "" + random.nextInt(3));
            }
            lines.add(random.nextInt(lines.size() + 1), line + (random.nextInt(5) == 0 ? "  # note" : ""));
        }
        return ("weft-level 1\n" + String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The second reference of the wrong kind declared the shared placeholder again, and the whole level was
     * refused with "duplicate asset '__placeholder_mesh'" on a line past the end of the file.
     */
    @Test
    void referencesOfTheWrongKindShareOnePlaceholder() {
        String text = """
                weft-level 1
                texture t textures/t.png
                mesh m meshes/m.obj
                entity a mesh=t texture=t 0 0 0
                entity b mesh=t texture=m 1 0 0
                entity c mesh=m texture=m 2 0 0
                """;
        LevelFileSalvage.Result r = LevelFileSalvage.parse("lvl", "lvl.level", Fixture.ascii(text), CodecRegistry.defaults());
        assertEquals(List.of(4, 5, 5, 6), r.failures().stream().map(LoadFailure::line).toList(), r.failures().toString());
        assertEquals(List.of("__placeholder_mesh", "__placeholder_mesh", "m"),
                r.level().entities().stream().map(LevelEntity::mesh).toList());
        assertEquals(List.of("t", "__placeholder_texture", "__placeholder_texture"),
                r.level().entities().stream().map(LevelEntity::texture).toList());
    }
}
