package dev.weft.assets;

import java.util.Objects;

/**
 * A world cut into square terrain chunks on the XZ plane, each chunk a level of its own
 * ({@code <prefix>_<column>_<row>}, loaded by a {@link LevelLoader}) whose entities are placed relative to
 * the chunk's centre. {@link ChunkStreamer} keeps the chunks near a point loaded.
 *
 * <pre>{@code
 * ChunkGrid world = ChunkGrid.shippedWorld();          // 8 x 8 chunks of 25 m, generated with the demo levels
 * String name = world.levelName(3, 5);                 // "world_3_5"
 * float x = world.centreXM(3), z = world.centreZM(5);  // where that chunk's origin sits
 * }</pre>
 *
 * @param prefix      level-name prefix
 * @param columns     chunks along X
 * @param rows        chunks along Z
 * @param chunkSizeM  side of one chunk, metres
 * @param originXM    X of the grid's minimum corner, metres
 * @param originZM    Z of the grid's minimum corner, metres
 */
public record ChunkGrid(String prefix, int columns, int rows, float chunkSizeM, float originXM, float originZM) {
    /** The world {@code dev.weft.assets.gen} writes beside the demo levels: it covers the demo level's 200 m. */
    public static final ChunkGrid SHIPPED = new ChunkGrid("world", 8, 8, 25f, -100f, -100f);

    /**
     * Checks the grid.
     *
     * @throws IllegalArgumentException if there is no column or row, the chunk size is not a positive,
     *                                  finite number, or a corner of the grid is not finite
     */
    public ChunkGrid {
        Objects.requireNonNull(prefix, "prefix");
        if (columns < 1 || rows < 1) {
            throw new IllegalArgumentException("a chunk grid needs at least one column and row, got " + columns + "x" + rows);
        }
        if (!(chunkSizeM > 0) || !Float.isFinite(chunkSizeM)) {
            throw new IllegalArgumentException("chunk size must be a positive number of metres, got " + chunkSizeM);
        }
        // A NaN or infinite centre makes every distance NaN or infinite: no chunk would ever load, silently.
        if (!Float.isFinite(originXM) || !Float.isFinite(originZM) || !Float.isFinite(originXM + columns * chunkSizeM)
                || !Float.isFinite(originZM + rows * chunkSizeM)) {
            throw new IllegalArgumentException("chunk grid '" + prefix + "': its corners must be finite metres, got origin ("
                    + originXM + ", " + originZM + ") and " + columns + "x" + rows + " chunks of " + chunkSizeM
                    + " m; no chunk of it could ever load");
        }
    }

    /**
     * {@link #SHIPPED}.
     *
     * @return the shipped world's grid
     */
    public static ChunkGrid shippedWorld() {
        return SHIPPED;
    }

    /**
     * The number of chunks.
     *
     * @return {@code columns * rows}
     */
    public int chunkCount() {
        return columns * rows;
    }

    /**
     * The level holding chunk ({@code column}, {@code row}).
     *
     * @param column the chunk's column, 0 to {@code columns - 1}
     * @param row the chunk's row, 0 to {@code rows - 1}
     * @return the level's name, {@code <prefix>_<column>_<row>}
     * @throws IndexOutOfBoundsException if the cell is outside the grid
     */
    public String levelName(int column, int row) {
        checkCell(column, row);
        return prefix + "_" + column + "_" + row;
    }

    /**
     * X of the centre of column {@code column}, metres.
     *
     * @param column the column; not checked against the grid
     * @return the x of the column's centre, metres
     */
    public float centreXM(int column) {
        return originXM + (column + 0.5f) * chunkSizeM;
    }

    /**
     * Z of the centre of row {@code row}, metres.
     *
     * @param row the row; not checked against the grid
     * @return the z of the row's centre, metres
     */
    public float centreZM(int row) {
        return originZM + (row + 0.5f) * chunkSizeM;
    }

    /**
     * Dense index of a cell, {@code row * columns + column}.
     *
     * @param column the chunk's column, 0 to {@code columns - 1}
     * @param row the chunk's row, 0 to {@code rows - 1}
     * @return the cell's index, 0 to {@code chunkCount() - 1}
     * @throws IndexOutOfBoundsException if the cell is outside the grid
     */
    public int index(int column, int row) {
        checkCell(column, row);
        return row * columns + column;
    }

    private void checkCell(int column, int row) {
        if (column < 0 || column >= columns || row < 0 || row >= rows) {
            throw new IndexOutOfBoundsException("chunk (" + column + ", " + row + ") is outside the " + columns + "x"
                    + rows + " grid '" + prefix + "'");
        }
    }
}
