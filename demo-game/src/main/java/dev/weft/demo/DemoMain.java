package dev.weft.demo;

import dev.weft.demo.game.DemoCommand;

/**
 * Entry point of {@code demo-game.jar}: the Weft demo game. {@code --help} lists the options; see
 * {@link dev.weft.demo.game.Game} for the loop and {@code demo-game/README.md} for how to run it.
 */
public final class DemoMain {
    private DemoMain() {}

    public static void main(String[] args) {
        System.exit(DemoCommand.execute(args, System.out, System.err));
    }
}
