package dev.weft.assets.fuzz;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

/**
 * A seeded mutator over real asset files: the same seed gives the same inputs, so a finding replays
 * from its seed and index alone (the input is saved too). Each input is one to four edits of a seed
 * file: bit flips, edge bytes, edge big-endian ints, truncation, deletion, duplication, splicing from
 * another seed; for text formats also numeric and index edge tokens, line deletion/duplication/swap,
 * control and invalid UTF-8 bytes, a byte-order mark, over-long lines and faces; for PNG also
 * chunk-aware edits (IHDR fields, chunk lengths, dropped/duplicated/reordered chunks, IDAT bytes, a
 * PLTE) with the CRC fixed up, and most PNG inputs keep signature, IHDR first and IEND last so they
 * reach stb_image instead of stopping at the decoder's own checks.
 */
final class Mutator {
    enum Format { PNG, OBJ, LEVEL }

    private static final byte[] EDGE_BYTES = {0, (byte) 0xFF, 0x7F, (byte) 0x80, 1, (byte) 0xFE};
    private static final int[] EDGE_INTS = {0, 1, -1, Integer.MAX_VALUE, Integer.MIN_VALUE, 0x10000, 16_384, 16_385,
            8192, 65_535, 0x7FFFFFF0, 13, 12};
    private static final String[] EDGE_NUMBERS = {"0", "-0", "1e38", "3.5e38", "-3.5e38", "1e-46", "NaN", "Infinity",
            "-inf", "2147483647", "2147483648", "-2147483649", "99999999999", "1.", ".5", "-.", "+", "0x1p3", "1f", "1e",
            "1e+", "00000000000000000000001", "1.0000000000000000000000001", "123456789012345678901234567890",
            "-.5e-3", "4e-324", "1e400", "٣", "1,5"};
    private static final String[] EDGE_INDICES = {"0", "-1", "-999999", "1/0", "1//", "//1", "1/1/1/1", "4294967297",
            "-2147483648", "2147483647", "1/-1/1", "-0", "1/ /1", "01", "9999999999", "99999999999", "/", "//", "1/1/"};
    private static final String[] INSERTED_LINES = {"v 0 0 0", "vt 0", "vn 0 0 1", "f 1 2 3", "f -1 -2 -3", "f 1",
            "f 1 1 1", "o x", "usemtl", "# comment", "weft-level 1", "texture t t.png", "mesh m m.obj",
            "collision c from m", "collision c from c", "entity e mesh=m texture=t 0 0 0",
            "entity e mesh=m texture=t collision=c 1 2 3", "entity e mesh=m mesh=m texture=t 0 0 0",
            "texture t ../t.png", "mesh m /abs.obj", "texture " + "n".repeat(64) + " a.png",
            "texture " + "n".repeat(65) + " a.png", "\t", "\r", "\u0000", "ÿ"};

    private final List<byte[]> seeds;
    private final Format format;
    private final SplittableRandom rnd;

    Mutator(Format format, List<byte[]> seeds, long seed) {
        this.format = format;
        this.seeds = seeds;
        this.rnd = new SplittableRandom(seed);
    }

    /** An input and what was done to make it (for the finding's report). */
    record Input(byte[] bytes, int seedIndex, String edits) {
    }

    Input next() {
        int s = rnd.nextInt(seeds.size());
        byte[] b = seeds.get(s).clone();
        int n = 1 + rnd.nextInt(4);
        StringBuilder edits = new StringBuilder();
        for (int k = 0; k < n; k++) {
            int op = rnd.nextInt(format == Format.PNG ? 14 : 19);
            int before = b.length;
            b = switch (op) {
                case 0 -> flipBits(b);
                case 1 -> edgeBytes(b);
                case 2 -> edgeInt(b);
                case 3 -> truncate(b);
                case 4 -> deleteRange(b);
                case 5 -> duplicateRange(b);
                case 6 -> splice(b);
                default -> format == Format.PNG ? pngEdit(b, op - 7, edits) : textEdit(b, op - 7, edits);
            };
            edits.append("op").append(op).append("(").append(before).append("->").append(b.length).append(") ");
        }
        if (format == Format.PNG && rnd.nextInt(5) != 0) {
            b = keepPngFrame(b);                  // most inputs get past the decoder's framing checks to stb
            edits.append("framed ");
        }
        return new Input(b, s, edits.toString().trim());
    }

    // ------------------------------------------------------------------ byte-level edits

    private byte[] flipBits(byte[] b) {
        if (b.length == 0) {
            return b;
        }
        for (int i = 1 + rnd.nextInt(8); i > 0; i--) {
            int at = rnd.nextInt(b.length);
            b[at] ^= (byte) (1 << rnd.nextInt(8));
        }
        return b;
    }

    private byte[] edgeBytes(byte[] b) {
        if (b.length == 0) {
            return b;
        }
        for (int i = 1 + rnd.nextInt(4); i > 0; i--) {
            b[rnd.nextInt(b.length)] = EDGE_BYTES[rnd.nextInt(EDGE_BYTES.length)];
        }
        return b;
    }

    private byte[] edgeInt(byte[] b) {
        if (b.length < 4) {
            return b;
        }
        ByteBuffer.wrap(b).putInt(rnd.nextInt(b.length - 3), EDGE_INTS[rnd.nextInt(EDGE_INTS.length)]);
        return b;
    }

    private byte[] truncate(byte[] b) {
        return b.length == 0 ? b : Arrays.copyOf(b, rnd.nextInt(b.length));
    }

    private byte[] deleteRange(byte[] b) {
        if (b.length < 2) {
            return b;
        }
        int from = rnd.nextInt(b.length);
        int to = Math.min(b.length, from + 1 + rnd.nextInt(Math.max(1, b.length / 8)));
        return concat(Arrays.copyOfRange(b, 0, from), Arrays.copyOfRange(b, to, b.length));
    }

    private byte[] duplicateRange(byte[] b) {
        if (b.length == 0) {
            return b;
        }
        int from = rnd.nextInt(b.length);
        int to = Math.min(b.length, from + 1 + rnd.nextInt(Math.max(1, b.length / 4)));
        int at = rnd.nextInt(b.length + 1);
        return concat(Arrays.copyOfRange(b, 0, at), Arrays.copyOfRange(b, from, to), Arrays.copyOfRange(b, at, b.length));
    }

    private byte[] splice(byte[] b) {
        byte[] other = seeds.get(rnd.nextInt(seeds.size()));
        if (other.length == 0) {
            return b;
        }
        int from = rnd.nextInt(other.length);
        int to = Math.min(other.length, from + 1 + rnd.nextInt(Math.max(1, other.length / 4)));
        int at = rnd.nextInt(b.length + 1);
        int replace = rnd.nextBoolean() ? Math.min(b.length - at, to - from) : 0;
        return concat(Arrays.copyOfRange(b, 0, at), Arrays.copyOfRange(other, from, to),
                Arrays.copyOfRange(b, at + replace, b.length));
    }

    // ------------------------------------------------------------------ text edits (OBJ, level)

    private byte[] textEdit(byte[] b, int op, StringBuilder edits) {
        String text = new String(b, StandardCharsets.ISO_8859_1);     // byte-preserving
        List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
        if (lines.isEmpty()) {
            lines.add("");
        }
        int li = rnd.nextInt(lines.size());
        switch (op) {
            case 0 -> lines.set(li, replaceToken(lines.get(li), true));
            case 1 -> lines.set(li, replaceToken(lines.get(li), false));
            case 2 -> lines.remove(li);
            case 3 -> {
                int times = rnd.nextInt(10) == 0 ? 300 + rnd.nextInt(3000) : 1 + rnd.nextInt(3);
                for (int i = 0; i < times; i++) {
                    lines.add(li, lines.get(li));
                }
                edits.append("x").append(times).append(' ');
            }
            case 4 -> {
                int lj = rnd.nextInt(lines.size());
                String t = lines.get(li);
                lines.set(li, lines.get(lj));
                lines.set(lj, t);
            }
            case 5 -> lines.add(li, INSERTED_LINES[rnd.nextInt(INSERTED_LINES.length)]);
            case 6 -> {
                String l = lines.get(li);
                int at = rnd.nextInt(l.length() + 1);
                String[] odd = {"\r", "\t", "\u0000", "\u000b", "\u00c3\u0028", "\u00ef\u00bb\u00bf", "#", "=", "/", " "};
                lines.set(li, l.substring(0, at) + odd[rnd.nextInt(odd.length)] + l.substring(at));
            }
            case 7 -> lines.set(li, longLine(lines.get(li)));
            case 8 -> {
                if (rnd.nextBoolean()) {
                    text = "\u00ef\u00bb\u00bf" + String.join("\n", lines);     // a UTF-8 BOM at the start
                } else {
                    text = String.join("\r\n", lines);
                }
                return text.getBytes(StandardCharsets.ISO_8859_1);
            }
            case 10 -> {                          // faces lose their normals: the parser must generate them
                for (int i = 0; i < lines.size(); i++) {
                    if (lines.get(i).startsWith("f ")) {
                        lines.set(i, lines.get(i).replaceAll("(\\d+)/(\\d*)/(\\d+)", rnd.nextBoolean() ? "$1/$2" : "$1"));
                    }
                }
            }
            case 11 -> {                          // scale every position: huge but finite coordinates
                String[] scales = {"e19", "e30", "e37", "e-30", "e-44"};
                String scale = scales[rnd.nextInt(scales.length)];
                for (int i = 0; i < lines.size(); i++) {
                    String l = lines.get(i);
                    if (l.startsWith("v ")) {
                        lines.set(i, l.replaceAll("(-?\\d+(\\.\\d+)?)(?=\\s|$)", "$1" + scale));
                    }
                }
                edits.append("scale").append(scale).append(' ');
            }
            default -> lines.set(li, lines.get(li).toUpperCase(java.util.Locale.ROOT));
        }
        return String.join("\n", lines).getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Replaces one token: a number by an edge number, or a face corner by an edge index. */
    private String replaceToken(String line, boolean number) {
        String[] tokens = line.split(" ", -1);
        if (tokens.length < 2) {
            return line;
        }
        int t = 1 + rnd.nextInt(tokens.length - 1);
        String replacement;
        if (number) {
            if (rnd.nextInt(20) == 0) {          // a huge number, valid or with a bad last character
                String[] ends = {"", "", "x", ".", "e", ".5x", "-"};
                String end = ends[rnd.nextInt(ends.length)];
                // Long digit runs, matching or not: LevelFileParser once took quadratic time to reject one
                // (LevelFileFuzzTestInputs/levelFile/level-coordinate-backtracking.level); its coordinate regex is possessive now.
                int max = 40_000;
                replacement = "1".repeat(1 + rnd.nextInt(max)) + end;
            } else {
                replacement = EDGE_NUMBERS[rnd.nextInt(EDGE_NUMBERS.length)];
            }
        } else {
            replacement = EDGE_INDICES[rnd.nextInt(EDGE_INDICES.length)];
        }
        tokens[t] = replacement;
        return String.join(" ", tokens);
    }

    /** A face with many corners, or a line with many numbers or one enormous token. */
    private String longLine(String line) {
        int kind = rnd.nextInt(3);
        if (kind == 0) {
            int corners = new int[] {255, 256, 257, 1000, 3}[rnd.nextInt(5)];
            StringBuilder f = new StringBuilder("f");
            for (int i = 0; i < corners; i++) {
                f.append(' ').append(1 + (i % 3));
            }
            return f.toString();
        }
        if (kind == 1) {
            return line + " 1".repeat(rnd.nextInt(10));
        }
        return line + " " + "x".repeat(1 + rnd.nextInt(50_000));
    }

    // ------------------------------------------------------------------ PNG chunk edits

    private record Chunk(String type, byte[] data) {
    }

    private byte[] pngEdit(byte[] b, int op, StringBuilder edits) {
        List<Chunk> chunks = chunks(b);
        if (chunks == null || chunks.isEmpty()) {
            return flipBits(b);
        }
        switch (op) {
            case 0, 1 -> {                        // IHDR fields: width, height, depth, colour type, methods
                Chunk ihdr = chunks.get(0);
                if (ihdr.data.length >= 13) {
                    ByteBuffer h = ByteBuffer.wrap(ihdr.data);
                    switch (rnd.nextInt(6)) {
                        case 0 -> h.putInt(0, EDGE_INTS[rnd.nextInt(EDGE_INTS.length)]);
                        case 1 -> h.putInt(4, EDGE_INTS[rnd.nextInt(EDGE_INTS.length)]);
                        case 2 -> h.put(8, (byte) new int[] {0, 1, 2, 3, 4, 8, 16, 255}[rnd.nextInt(8)]);
                        case 3 -> h.put(9, (byte) new int[] {0, 1, 2, 3, 4, 5, 6, 7, 255}[rnd.nextInt(9)]);
                        case 4 -> h.put(12, (byte) rnd.nextInt(3));                     // interlace: 0, Adam7, bad
                        default -> h.put(10 + rnd.nextInt(2), (byte) rnd.nextInt(3));   // compression, filter
                    }
                    edits.append("ihdr ");
                }
            }
            case 2 -> chunks.remove(rnd.nextInt(chunks.size()));
            case 3 -> {
                int i = rnd.nextInt(chunks.size());
                chunks.add(i, chunks.get(i));
            }
            case 4 -> {                           // bytes inside an IDAT (exercises inflate and unfiltering)
                for (Chunk c : chunks) {
                    if (c.type.equals("IDAT") && c.data.length > 0) {
                        for (int k = 1 + rnd.nextInt(6); k > 0; k--) {
                            c.data[rnd.nextInt(c.data.length)] ^= (byte) (1 + rnd.nextInt(255));
                        }
                        break;
                    }
                }
            }
            case 5 -> {                           // a palette: none, too long, or odd-sized
                int entries = new int[] {0, 1, 256, 257, 2}[rnd.nextInt(5)];
                byte[] plte = new byte[entries * 3 + (rnd.nextInt(4) == 0 ? 1 : 0)];
                rnd.nextBytes(plte);
                chunks.add(Math.min(1, chunks.size()), new Chunk("PLTE", plte));
            }
            default -> {                          // split or cut the pixel data
                for (int i = 0; i < chunks.size(); i++) {
                    Chunk c = chunks.get(i);
                    if (c.type.equals("IDAT") && c.data.length > 1) {
                        int cut = 1 + rnd.nextInt(c.data.length - 1);
                        chunks.set(i, new Chunk("IDAT", Arrays.copyOf(c.data, cut)));
                        if (rnd.nextBoolean()) {
                            chunks.add(i + 1, new Chunk("IDAT", Arrays.copyOfRange(c.data, cut, c.data.length)));
                        }
                        break;
                    }
                }
            }
        }
        byte[] out = write(chunks);
        if (rnd.nextInt(8) == 0) {                // a chunk length that lies (no CRC can fix that)
            int lenAt = findLengthOffset(out, rnd.nextInt(Math.max(1, chunks.size())));
            if (lenAt + 4 <= out.length) {
                ByteBuffer.wrap(out).putInt(lenAt, EDGE_INTS[rnd.nextInt(EDGE_INTS.length)]);
            }
        }
        return out;
    }

    private static int findLengthOffset(byte[] png, int chunkIndex) {
        int at = 8;
        for (int i = 0; i < chunkIndex && at + 8 <= png.length; i++) {
            int len = ByteBuffer.wrap(png).getInt(at);
            if (len < 0 || at + 12L + len > png.length) {
                break;
            }
            at += 12 + len;
        }
        return at;
    }

    /** The chunks of a well-framed PNG, or null. */
    private static List<Chunk> chunks(byte[] b) {
        if (b.length < 8) {
            return null;
        }
        List<Chunk> out = new ArrayList<>();
        int at = 8;
        ByteBuffer buf = ByteBuffer.wrap(b);
        while (at + 12 <= b.length) {
            int len = buf.getInt(at);
            if (len < 0 || at + 12L + len > b.length) {
                return out.isEmpty() ? null : out;
            }
            String type = new String(b, at + 4, 4, StandardCharsets.ISO_8859_1);
            out.add(new Chunk(type, Arrays.copyOfRange(b, at + 8, at + 8 + len)));
            at += 12 + len;
        }
        return out;
    }

    private static byte[] write(List<Chunk> chunks) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(PNG_SIGNATURE);
        for (Chunk c : chunks) {
            byte[] type = c.type.getBytes(StandardCharsets.ISO_8859_1);
            out.writeBytes(ByteBuffer.allocate(4).putInt(c.data.length).array());
            out.writeBytes(type);
            out.writeBytes(c.data);
            CRC32 crc = new CRC32();
            crc.update(type);
            crc.update(c.data);
            out.writeBytes(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
        }
        return out.toByteArray();
    }

    static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    static final byte[] IEND = {0, 0, 0, 0, 'I', 'E', 'N', 'D', (byte) 0xAE, 0x42, 0x60, (byte) 0x82};

    /** Puts back the signature and a final IEND, so the decoder's framing checks pass. */
    private static byte[] keepPngFrame(byte[] b) {
        byte[] out = b.length >= 8 ? b : Arrays.copyOf(b, 8);
        System.arraycopy(PNG_SIGNATURE, 0, out, 0, 8);
        boolean endsWithIend = out.length >= 8 + IEND.length
                && Arrays.equals(out, out.length - IEND.length, out.length, IEND, 0, IEND.length);
        return endsWithIend ? out : concat(out, IEND);
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
