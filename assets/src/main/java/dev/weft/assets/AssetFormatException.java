package dev.weft.assets;

/**
 * An asset file whose bytes could not be turned into data: a malformed level file, a corrupt PNG, a bad
 * OBJ. The message always starts with the file and, for text formats, the 1-based line, in the
 * {@code file:line: detail} form compilers use, so a log line points straight at the problem:
 * {@code demo.level:12: unknown asset 'foo' in 'collision rock_col from foo'}.
 */
public final class AssetFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * The file name as the caller passed it to the parser.
     */
    private final String file;
    /**
     * The 1-based line, or 0 when the problem is not tied to a line.
     */
    private final int line;

    /**
     * A problem on one line of a text file; {@code line} is 1-based.
     *
     * @param file the file's display name
     * @param line the 1-based line of the problem
     * @param detail what is wrong
     */
    public AssetFormatException(String file, int line, String detail) {
        super(file + ":" + line + ": " + detail);
        this.file = file;
        this.line = line;
    }

    /**
     * A problem with the file as a whole (binary formats, missing content).
     *
     * @param file the file's display name
     * @param detail what is wrong
     */
    public AssetFormatException(String file, String detail) {
        super(file + ": " + detail);
        this.file = file;
        this.line = 0;
    }

    /**
     * The file name as the caller passed it to the parser.
     *
     * @return the file name
     */
    public String file() {
        return file;
    }

    /**
     * The 1-based line, or 0 when the problem is not tied to a line.
     *
     * @return the line, or 0
     */
    public int line() {
        return line;
    }
}
