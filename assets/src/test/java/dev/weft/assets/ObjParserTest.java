package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ObjParserTest {
    private static final String QUAD = """
            v 0 0 0
            v 1 0 0
            v 1 0 1
            v 0 0 1
            """;

    @Test
    void demoMeshesHaveTheGeneratedCounts() {
        // triangles, vertices (distinct v/vt/vn corners): numbers follow from the generator's parameters.
        Map<String, int[]> expected = Map.of(
                "terrain", new int[] {2 * 224 * 224, 225 * 225},
                "sphere", new int[] {20 * 1024, 10 * 1024 + 2},
                "torus", new int[] {2 * 192 * 96, 193 * 97},
                "rock", new int[] {20 * 256, 3 * 20 * 256},
                "pillar", new int[] {2 * 24 * 4 + 2 * 22, 5 * 25 + 2 * 24});
        LevelFile level = TestResources.level("demo");
        for (LevelAsset asset : level.meshes()) {
            MeshData mesh = ObjParser.parse(asset.path(), TestResources.bytes(LevelResources.assetFile("demo", asset)));
            int[] counts = expected.get(asset.name());
            assertEquals(counts[0], mesh.triangleCount(), asset.name() + " triangles");
            assertEquals(counts[1], mesh.vertexCount(), asset.name() + " vertices");
            assertTrue(mesh.vertices().isDirect() && mesh.indices().isDirect());
            assertUnitNormalsAndBounds(mesh);
        }
    }

    @Test
    void agreesWithJavaglTriangleByTriangle() {
        for (String levelName : new String[] {"tiny", "demo"}) {
            for (LevelAsset asset : TestResources.level(levelName).meshes()) {
                byte[] bytes = TestResources.bytes(LevelResources.assetFile(levelName, asset));
                MeshData mine = ObjParser.parse(asset.path(), bytes);
                JavaglObjLoader.Result theirs = JavaglObjLoader.load(bytes);
                assertEquals(theirs.triangleCount(), mine.triangleCount(), asset.path());
                // Vertex numbering may differ (javagl dedupes differently), so compare what each corner is.
                IntBuffer myIndices = mine.indices(), theirIndices = theirs.indices();
                FloatBuffer myVertices = mine.vertices(), theirVertices = theirs.vertices();
                for (int i = 0; i < myIndices.limit(); i++) {
                    for (int k = 0; k < MeshData.FLOATS_PER_VERTEX; k++) {
                        float a = myVertices.get(myIndices.get(i) * 8 + k), b = theirVertices.get(theirIndices.get(i) * 8 + k);
                        if (a != b) {
                            throw new AssertionError(asset.path() + " corner " + i + " float " + k + ": " + a + " vs javagl " + b);
                        }
                    }
                }
            }
        }
    }

    @Test
    void polygonsAreFanTriangulatedAndCornersShared() {
        MeshData quad = parse(QUAD + "f 1 2 3 4\n");
        assertEquals(2, quad.triangleCount());
        assertEquals(4, quad.vertexCount());
        assertArrayEquals(new int[] {0, 1, 2, 0, 2, 3}, indices(quad));
        MeshData pentagon = parse(QUAD + "v -1 0 0.5\nf 1 2 3 4 5\n");
        assertEquals(3, pentagon.triangleCount());
        assertArrayEquals(new int[] {0, 1, 2, 0, 2, 3, 0, 3, 4}, indices(pentagon));
    }

    @Test
    void cornerFormsNegativeIndicesAndDefaults() {
        MeshData mesh = parse("""
                v 0 0 0
                v 1 0 0
                v 0 1 0
                vt 0.25 0.75
                vt 0.5
                vn 0 0 1
                f 1/1/1 2/2/1 3//1
                f -3/-2 -2/-1 -1
                """);
        assertEquals(2, mesh.triangleCount());
        FloatBuffer v = mesh.vertices();
        assertArrayEquals(new float[] {0, 0, 0, 0, 0, 1, 0.25f, 0.75f}, vertex(v, 0));
        assertArrayEquals(new float[] {1, 0, 0, 0, 0, 1, 0.5f, 0}, vertex(v, 1), "vt with only u gets v = 0");
        assertArrayEquals(new float[] {0, 1, 0, 0, 0, 1, 0, 0}, vertex(v, 2), "no vt gets (0, 0)");
        // Second face: corners without vn get the generated normal of their position: +z for this triangle.
        assertArrayEquals(new float[] {0, 0, 0, 0, 0, 1, 0.25f, 0.75f}, vertex(v, 3));
        assertEquals(6, mesh.vertexCount(), "same v/vt with and without vn are different vertices");
    }

    @Test
    void missingNormalsAreAveragedOverSharingFaces() {
        MeshData mesh = parse(QUAD + "f 1 4 3 2\n");   // counter-clockwise seen from +y
        for (int i = 0; i < mesh.vertexCount(); i++) {
            float[] vertex = vertex(mesh.vertices(), i);
            assertArrayEquals(new float[] {0, 1, 0}, new float[] {vertex[3], vertex[4], vertex[5]});
        }
    }

    /**
     * Generated normals stay unit length for coordinates up to float's largest: in float arithmetic the
     * squared length overflowed above about 4e9 (normals (0, -0, 0)) and the cross product above about
     * 2e19 (NaN or infinite normals).
     */
    @Test
    void generatedNormalsAreUnitLengthForHugeCoordinates() {
        for (String scale : new String[] {"1e10", "1e20", "1e30", "1.5e38"}) {
            MeshData mesh = parse("v 0 0 0\nv " + scale + " 0 0\nv 0 " + scale + " 0\nv -" + scale + " 0 -" + scale
                    + "\nf 1 2 3\nf 1 3 4\n");
            for (int i = 0; i < mesh.vertexCount(); i++) {
                float[] vertex = vertex(mesh.vertices(), i);
                double length = Math.sqrt(vertex[3] * vertex[3] + vertex[4] * vertex[4] + vertex[5] * vertex[5]);
                assertEquals(1.0, length, 1e-5, "scale " + scale + ", vertex " + i + ": normal ("
                        + vertex[3] + ", " + vertex[4] + ", " + vertex[5] + ")");
            }
        }
        float[] first = vertex(parse("v 0 0 0\nv 1e30 0 0\nv 0 1e30 0\nf 1 2 3\n").vertices(), 0);
        assertArrayEquals(new float[] {0, 0, 1}, new float[] {first[3], first[4], first[5]}, "counter-clockwise in xy: +z");
    }

    @Test
    void ignoredStatementsCommentsCrlfAndExtraComponents() {
        MeshData mesh = parse("# header\r\nmtllib a.mtl\r\no thing\r\ng group\r\ns off\r\nusemtl stone\r\n"
                + "v 0 0 0 1\r\nv 1 0 0 0.5 0.5 0.5\r\nv 0 1 0   # trailing comment\r\n\r\nvt 0 0 0\r\nf 1/1 2/1 3/1\r\nl 1 2\r\n");
        assertEquals(1, mesh.triangleCount());
        assertEquals(new Aabb(0, 0, 0, 1, 1, 0), mesh.bounds());
    }

    /**
     * What exporters and editors write that the parser refused (found by a probe): a UTF-8 byte-order mark,
     * a comment with no blank before it, and lone CR line endings (old Mac exporters).
     */
    @Test
    void aByteOrderMarkACommentWithNoBlankAndLoneCrLinesParse() {
        MeshData mesh = parse("\u00ef\u00bb\u00bfv 0 0 0#origin\rv 1 0 0# x\rv 0 1 0\rf 1 2 3#tri\r");
        assertEquals(1, mesh.triangleCount());
        assertEquals(new Aabb(0, 0, 0, 1, 1, 0), mesh.bounds());
        assertError("cube.obj:3: missing z", "v 0 0 0\rv 1 0 0\r\nv 0 1\rf 1 2 3\r");   // lines counted once each
    }

    /**
     * One corrupt token of 10 MB made a message of 10 MB (and a 200 MB one, 200 MB): a message quotes at
     * most 60 bytes of it and says how long it was, on every path that quotes a token.
     */
    @Test
    void aHugeBadTokenIsQuotedShortInTheMessage() {
        String huge = "9".repeat(1_000) + "x".repeat(2_000_000);
        String cut = "9".repeat(60) + "... (2001000 bytes)";
        assertError("cube.obj:1: bad number '" + cut + "' for x", "v " + huge + " 0 0\n");
        assertError("cube.obj:5: bad vertex index '" + cut + "'", QUAD + "f 1 2 " + huge + "\n");
        assertError("cube.obj:1: unexpected '" + cut + "' after 'vn' numbers", "vn 1 2 3 " + huge + "\n");
        assertError("cube.obj:1: unknown statement '" + cut + "'", huge + "\n");
    }

    @Test
    void numbersParseLikeTheJdk() {
        MeshData mesh = parse("v 1e2 -2.5E-1 +3.\nv .5 0.1 123456.789\nv 0.30000001 -0 1234567890123456789\nf 1 2 3\n");
        FloatBuffer v = mesh.vertices();
        assertArrayEquals(new float[] {100f, -0.25f, 3f}, position(v, 0));
        assertArrayEquals(new float[] {0.5f, 0.1f, 123456.789f}, position(v, 1));
        assertArrayEquals(new float[] {0.30000001f, -0f, 1234567890123456789f}, position(v, 2));
    }

    @Test
    void badIndexNamesFileAndLine() {
        assertError("cube.obj:5: bad vertex index 9: only 4 defined before this line", QUAD + "f 1 2 9\n");
        assertError("cube.obj:5: bad vertex index 0: OBJ indices start at 1", QUAD + "f 0 1 2\n");
        assertError("cube.obj:5: bad vertex index -5: only 4 defined before this line", QUAD + "f -5 1 2\n");
        assertError("cube.obj:5: bad texture coordinate index 1: only 0 defined before this line", QUAD + "f 1/1 2/1 3/1\n");
        assertError("cube.obj:5: bad normal index 2: only 0 defined before this line", QUAD + "f 1//2 2//2 3//2\n");
        assertError("cube.obj:5: bad vertex index '99999999999'", QUAD + "f 1 2 99999999999\n");
        assertError("cube.obj:5: bad vertex index 'x'", QUAD + "f 1 2 x\n");
        assertError("cube.obj:5: bad vertex index '1.5'", QUAD + "f 1 2 1.5\n");
        assertError("cube.obj:7: bad face corner '1/1/1/1'", QUAD + "vt 0 0\nvn 0 1 0\nf 1 2 1/1/1/1\n");
        assertError("cube.obj:1: bad vertex index 1: only 0 defined before this line", "f 1 2 3\n" + QUAD);
    }

    @Test
    void nonFiniteAndBadNumbersNameFileAndLine() {
        assertError("cube.obj:2: non-finite y 'NaN'", "v 0 0 0\nv 1 NaN 0\n");
        assertError("cube.obj:2: non-finite x 'nan'", "v 0 0 0\nv nan 0 0\n");
        assertError("cube.obj:1: non-finite normal z '-Infinity'", "vn 0 0 -Infinity\n");
        assertError("cube.obj:1: non-finite z '1e39' (out of float range)", "v 0 0 1e39\n");
        assertError("cube.obj:1: bad number '1.2.3' for x", "v 1.2.3 0 0\n");
        assertError("cube.obj:1: bad number '0x10' for x", "v 0x10 0 0\n");
        assertError("cube.obj:1: missing z", "v 1 2\n");
        assertError("cube.obj:1: unexpected '4' after 'vn' numbers", "vn 1 2 3 4\n");
    }

    @Test
    void absurdCountsAreRejected() {
        StringBuilder huge = new StringBuilder(QUAD).append('f');
        for (int i = 0; i < 300; i++) {
            huge.append(' ').append(i % 4 + 1);
        }
        assertError("cube.obj:5: absurd face: more than 256 corners", huge + "\n");
        ObjLimits small = new ObjLimits(8, 4, 3);
        AssetFormatException tooManyTriangles = assertThrows(AssetFormatException.class,
                () -> ObjParser.parse("cube.obj", TestResources.ascii(QUAD + "f 1 2 3 4\nf 1 2 3 4\n"), small));
        assertEquals("cube.obj:6: absurd triangle count: more than 3", tooManyTriangles.getMessage());
        AssetFormatException tooManyVertices = assertThrows(AssetFormatException.class,
                () -> ObjParser.parse("cube.obj", TestResources.ascii(QUAD + "v 2 2 2\n"), small));
        assertEquals("cube.obj:5: absurd count: more than 4 'v' lines", tooManyVertices.getMessage());
    }

    @Test
    void garbageAndDegenerateStatementsAreRejected() {
        assertError("cube.obj:3: unknown statement 'hello world'", "v 0 0 0\n\nhello world\n");
        assertError("cube.obj:2: unknown statement '\\xff\\xfe garbage'", "v 0 0 0\n\u00ff\u00fe garbage\n");
        assertError("cube.obj:2: unknown statement '\\x1b[2Jcleared'", "v 0 0 0\n\u001b[2Jcleared\n");
        assertError("cube.obj:5: face has 2 corners, needs at least 3: 'f 1 2'", QUAD + "f 1 2\n");
        assertError("cube.obj:5: face has 0 corners, needs at least 3: 'f'", QUAD + "f\n");
        AssetFormatException noFaces = assertThrows(AssetFormatException.class, () -> parse(QUAD));
        assertEquals("cube.obj: no faces in 4 lines", noFaces.getMessage());
        assertEquals(0, noFaces.line());
    }

    private static MeshData parse(String obj) {
        return ObjParser.parse("cube.obj", obj.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    }

    private static void assertError(String expected, String obj) {
        AssetFormatException e = assertThrows(AssetFormatException.class, () -> parse(obj));
        assertEquals(expected, e.getMessage());
        assertEquals("cube.obj", e.file());
        assertEquals(Integer.parseInt(expected.split(":")[1]), e.line());
    }

    private static int[] indices(MeshData mesh) {
        IntBuffer buffer = mesh.indices();
        int[] out = new int[buffer.remaining()];
        buffer.get(out);
        return out;
    }

    private static float[] vertex(FloatBuffer vertices, int index) {
        float[] out = new float[MeshData.FLOATS_PER_VERTEX];
        vertices.get(index * MeshData.FLOATS_PER_VERTEX, out);
        return out;
    }

    private static float[] position(FloatBuffer vertices, int index) {
        float[] vertex = vertex(vertices, index);
        return new float[] {vertex[0], vertex[1], vertex[2]};
    }

    private static void assertUnitNormalsAndBounds(MeshData mesh) {
        Aabb bounds = mesh.bounds();
        for (int i = 0; i < mesh.vertexCount(); i++) {
            float[] v = vertex(mesh.vertices(), i);
            assertTrue(bounds.contains(v[0], v[1], v[2]));
            double length = Math.sqrt(v[3] * v[3] + v[4] * v[4] + v[5] * v[5]);
            assertEquals(1.0, length, 1e-3, mesh.file() + " normal of vertex " + i);
        }
    }
}
