package dev.weft.demo;

/** Placeholder entry point replaced by the demo level loader. */
public final class DemoMain {
    private DemoMain() {}

    public static void main(String[] args) {
        System.out.println("Weft demo: skeleton");
    }
}
