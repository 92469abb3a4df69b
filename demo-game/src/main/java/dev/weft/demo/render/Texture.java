package dev.weft.demo.render;

/**
 * An RGBA8 2D texture with a full mip chain, made by {@link Renderer#uploadTexture}. Only meaningful to
 * the renderer that made it; freed by {@link Renderer#release(Texture)} or when that renderer closes.
 */
public final class Texture {
    final Renderer owner;
    final int id;            // GL name; 0 for a headless renderer
    private final int width;
    private final int height;
    boolean released;        // owner thread only

    Texture(Renderer owner, int id, int width, int height) {
        this.owner = owner;
        this.id = id;
        this.width = width;
        this.height = height;
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    /** Levels in the mip chain: 1 + floor(log2(max(width, height))). */
    public int mipLevels() {
        return 32 - Integer.numberOfLeadingZeros(Math.max(width, height));
    }

    public boolean isReleased() {
        return released;
    }

    @Override
    public String toString() {
        return "Texture[id=" + id + ", " + width + "x" + height + (released ? ", released" : "") + "]";
    }
}
