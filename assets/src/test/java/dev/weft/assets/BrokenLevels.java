package dev.weft.assets;

import java.nio.charset.StandardCharsets;

/**
 * Big level files with bad lines spread through them, one of each kind of error the salvage repairs in
 * turn: a bad coordinate, an unregistered extension, a duplicate, an unknown statement (line-local), an
 * unknown texture, an unknown collision source, a self-referencing collision, a reference to an asset of the
 * wrong kind (cross-line). For {@link LevelFileSalvageTest} and the {@link SalvageTiming} program.
 */
final class BrokenLevels {
    static final int ERROR_KINDS = 8;

    private BrokenLevels() {}

    /**
     * A level of {@code lines} lines (header included) with {@code errors} bad ones spread evenly, cycling
     * through the {@value #ERROR_KINDS} kinds. The good lines declare 500 textures, 500 meshes, 500
     * collisions, then entities.
     */
    static byte[] level(int lines, int errors) {
        StringBuilder text = new StringBuilder("weft-level 1\n");
        int spacing = Math.max(1, (lines - 1) / Math.max(1, errors));
        int bad = 0;
        for (int n = 2; n <= lines; n++) {
            int i = n - 2;
            if (bad < errors && i % spacing == spacing / 2) {
                text.append(badLine(bad++)).append('\n');
            } else if (i < 500) {
                text.append("texture t").append(i).append(" textures/t").append(i).append(".png\n");
            } else if (i < 1000) {
                text.append("mesh m").append(i - 500).append(" meshes/m").append(i - 500).append(".obj\n");
            } else if (i < 1500) {
                text.append("collision c").append(i - 1000).append(" from m").append(i - 1000).append('\n');
            } else {
                int k = i % 500;
                text.append("entity e").append(i).append(" mesh=m").append(k).append(" texture=t").append(k)
                        .append(" collision=c").append(k).append(' ').append(i % 97).append(" 0 -").append(k).append('\n');
            }
        }
        return text.toString().getBytes(StandardCharsets.US_ASCII);
    }

    private static String badLine(int b) {
        return switch (b % ERROR_KINDS) {
            case 0 -> "entity bad" + b + " mesh=m1 texture=t1 0 0 zero";          // bad coordinate: dropped
            case 1 -> "texture bad" + b + " textures/bad" + b + ".jpg";            // no codec: placeholder
            case 2 -> "mesh m2 meshes/again" + b + ".obj";                         // duplicate: dropped
            case 3 -> "sound bad" + b + " sounds/bad" + b + ".ogg";                // unknown statement: dropped
            case 4 -> "entity bad" + b + " mesh=m3 texture=nope" + b + " 1 2 3";   // unknown: placeholder texture
            case 5 -> "collision bad" + b + " from ghost" + b;                     // unknown source: placeholder mesh
            case 6 -> "collision bad" + b + " from bad" + b;                       // cycle: built from the cube
            default -> wrongKind(b / ERROR_KINDS);
        };
    }

    /** A reference to an asset of the wrong kind: three entities (mesh=, texture=, collision=), then collisions. */
    private static String wrongKind(int nth) {
        return switch (nth) {
            case 0 -> "entity wrong0 mesh=t4 texture=t4 4 5 6";                    // the shared placeholder mesh
            case 1 -> "entity wrong1 mesh=m4 texture=m4 4 5 6";                    // the shared placeholder texture
            case 2 -> "entity wrong2 mesh=m4 texture=t4 collision=m4 4 5 6";       // the shared placeholder collision
            default -> "collision wrong" + nth + " from t" + nth;                  // from a texture: the cube
        };
    }
}
