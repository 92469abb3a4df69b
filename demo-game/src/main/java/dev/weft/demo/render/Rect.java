package dev.weft.demo.render;

/** A pixel rectangle, origin at the top-left of the framebuffer, y down. */
record Rect(int x, int y, int width, int height) {
    int right() {
        return x + width;
    }

    int bottom() {
        return y + height;
    }

    boolean contains(int px, int py) {
        return px >= x && px < right() && py >= y && py < bottom();
    }
}
