package dev.weft.assets;

import java.nio.charset.StandardCharsets;

/**
 * Reads tokens and numbers from one OBJ line held in a byte array, without allocating on the fast path.
 * OBJ is ASCII, so bytes are characters. Any problem becomes an {@link AssetFormatException} with the file
 * and line.
 */
final class ObjLineCursor {
    private static final double[] POW10 = new double[23];

    static {
        POW10[0] = 1;
        for (int i = 1; i < POW10.length; i++) {
            POW10[i] = POW10[i - 1] * 10;   // exact up to 1e22, which is why the fast path stops there
        }
    }

    private final String file;
    private final byte[] bytes;
    private int pos;     // next byte to read
    private int end;     // end of the current line, exclusive, '\r' trimmed
    private int line;    // 1-based

    ObjLineCursor(String file, byte[] bytes) {
        this.file = file;
        this.bytes = bytes;
    }

    void reset(int start, int lineEnd, int lineNumber) {
        pos = start;
        end = lineEnd;
        line = lineNumber;
    }

    int line() {
        return line;
    }

    /** Skips blanks; true if nothing but blanks or a trailing {@code #} comment is left. */
    boolean atEnd() {
        while (pos < end && (bytes[pos] == ' ' || bytes[pos] == '\t')) {
            pos++;
        }
        return pos >= end || bytes[pos] == '#';
    }

    /** Start of the next token, after blanks. Call {@link #atEnd()} first. */
    int tokenStart() {
        return pos;
    }

    /** Moves past the current token and returns its end. */
    int skipToken() {
        while (pos < end && bytes[pos] != ' ' && bytes[pos] != '\t') {
            pos++;
        }
        return pos;
    }

    /** Bytes as text; Latin-1 maps every byte to one char, so garbage shows up as itself in messages. */
    String text(int from, int to) {
        return new String(bytes, from, to - from, StandardCharsets.ISO_8859_1);
    }

    /** The whole current line, for messages (cut and escaped as {@link #shown}). */
    String lineText(int lineStart) {
        int from = lineStart, to = end;
        while (from < to && (bytes[from] == ' ' || bytes[from] == '\t')) {
            from++;
        }
        while (to > from && (bytes[to - 1] == ' ' || bytes[to - 1] == '\t')) {
            to--;
        }
        return shown(from, to);
    }

    /** Longest run of bytes quoted in a message; a corrupt file can have a "token" of megabytes. */
    static final int MAX_SHOWN_BYTES = 60;

    /**
     * Bytes {@code [from, to)} for a message: at most {@value #MAX_SHOWN_BYTES} of them (then "..." and the
     * length), control bytes and bytes above ASCII as {@code \xNN}, so garbage cannot flood a log or
     * send escape sequences to a terminal. Never builds the whole run as a string.
     */
    String shown(int from, int to) {
        StringBuilder sb = new StringBuilder();
        int stop = Math.min(to, from + MAX_SHOWN_BYTES);
        for (int i = from; i < stop; i++) {
            int b = bytes[i] & 0xFF;
            if (b < 0x20 || b >= 0x7F) {
                sb.append(String.format("\\x%02x", b));
            } else {
                sb.append((char) b);
            }
        }
        if (to > stop) {
            sb.append("... (").append(to - from).append(" bytes)");
        }
        return sb.toString();
    }

    /**
     * Parses a finite decimal float. Fast path: up to 18 significant digits and a decimal exponent within
     * ±22, computed as one exact double division or multiplication, so the double is correctly rounded and
     * the float off by at most one ulp (double rounding); anything else goes to {@link Float#parseFloat}.
     */
    float readFloat(String what) {
        if (atEnd()) {
            throw error("missing " + what);
        }
        int start = pos;
        int i = pos;
        boolean negative = false;
        if (bytes[i] == '-' || bytes[i] == '+') {
            negative = bytes[i] == '-';
            i++;
        }
        long mantissa = 0;
        int digits = 0, fractionDigits = 0;
        boolean seenDigit = false;
        while (i < end && isDigit(bytes[i])) {
            mantissa = mantissa * 10 + (bytes[i++] - '0');
            digits++;
            seenDigit = true;
        }
        if (i < end && bytes[i] == '.') {
            i++;
            while (i < end && isDigit(bytes[i])) {
                mantissa = mantissa * 10 + (bytes[i++] - '0');
                digits++;
                fractionDigits++;
                seenDigit = true;
            }
        }
        int exponent = 0;
        boolean fast = seenDigit && digits <= 18;
        if (i < end && (bytes[i] == 'e' || bytes[i] == 'E')) {
            fast = false;   // rare in OBJ files; let the JDK handle it
        }
        if (fast && (i == end || bytes[i] == ' ' || bytes[i] == '\t')) {
            pos = i;
            exponent -= fractionDigits;
            if (exponent >= -22) {
                double value = exponent < 0 ? mantissa / POW10[-exponent] : mantissa * POW10[exponent];
                return (float) (negative ? -value : value);
            }
        }
        pos = start;
        return slowFloat(what);
    }

    private float slowFloat(String what) {
        int start = pos;
        int tokenEnd = skipToken();
        if (tokenEnd - start > MAX_NUMBER_BYTES) {   // no float needs this many; don't copy megabytes to say so
            throw error("bad number '" + shown(start, tokenEnd) + "' for " + what);
        }
        String token = text(start, tokenEnd);
        for (int k = 0; k < token.length(); k++) {
            if ("0123456789+-.eE".indexOf(token.charAt(k)) < 0) {
                String lower = token.toLowerCase(java.util.Locale.ROOT);
                if (lower.contains("nan") || lower.contains("inf")) {
                    throw error("non-finite " + what + " '" + shown(start, tokenEnd) + "'");
                }
                throw error("bad number '" + shown(start, tokenEnd) + "' for " + what);
            }
        }
        float value;
        try {
            value = Float.parseFloat(token);
        } catch (NumberFormatException e) {
            throw error("bad number '" + shown(start, tokenEnd) + "' for " + what);
        }
        if (!Float.isFinite(value)) {
            throw error("non-finite " + what + " '" + shown(start, tokenEnd) + "' (out of float range)");
        }
        return value;
    }

    private static final int MAX_NUMBER_BYTES = 1_000;

    /**
     * Parses a face corner's index: a positive 1-based index or a negative one relative to the
     * {@code definedSoFar} elements read so far (-1 is the last). Returns the absolute 1-based index.
     * Stops at '/', blank or end of line.
     */
    int readIndex(String element, int definedSoFar) {
        int start = pos;
        boolean negative = false;
        if (pos < end && bytes[pos] == '-') {
            negative = true;
            pos++;
        }
        long value = 0;
        int digits = 0;
        while (pos < end && isDigit(bytes[pos])) {
            value = value * 10 + (bytes[pos++] - '0');
            if (++digits > 10) {
                break;
            }
        }
        if (digits == 0 || digits > 10 || (pos < end && bytes[pos] != '/' && bytes[pos] != ' ' && bytes[pos] != '\t')) {
            pos = start;
            throw error("bad " + element + " index '" + shown(start, skipToken()) + "'");
        }
        long absolute = negative ? definedSoFar + 1 - value : value;
        if (value == 0 || absolute < 1 || absolute > definedSoFar) {
            throw error("bad " + element + " index " + (negative ? "-" : "") + value + ": "
                    + (value == 0 ? "OBJ indices start at 1" : "only " + definedSoFar + " defined before this line"));
        }
        return (int) absolute;
    }

    /** Consumes a '/' if it is next. */
    boolean slash() {
        if (pos < end && bytes[pos] == '/') {
            pos++;
            return true;
        }
        return false;
    }

    /** True if the next byte ends the corner (blank or end of line). */
    boolean cornerEnds() {
        return pos >= end || bytes[pos] == ' ' || bytes[pos] == '\t';
    }

    AssetFormatException error(String detail) {
        return new AssetFormatException(file, line, detail);
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }
}
