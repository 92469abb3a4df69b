package dev.weft.demo.game;

import dev.weft.demo.render.Camera;
import dev.weft.demo.window.Display;
import org.joml.Matrix4f;
import org.joml.Vector3f;

/** Frame inputs: ticks from the clock, camera from the path at the resulting simulated time. Main thread. */
final class InputClock {
    static final long TICK_NANOS = 16_666_667L;

    private final GameConfig.Clock clock;
    private final Camera camera;
    private final CollisionWorld.WorldBounds bounds;
    private final Display display;
    private final Vector3f eye = new Vector3f();
    private final Vector3f target = new Vector3f();
    private final Matrix4f viewProjection = new Matrix4f();
    private long simTicks;
    private long accumulatedNanos;
    private long lastNanos = System.nanoTime();

    InputClock(GameConfig.Clock clock, Camera camera, CollisionWorld.WorldBounds bounds, Display display) {
        this.clock = clock;
        this.camera = camera;
        this.bounds = bounds;
        this.display = display;
    }

    FrameGraph.Input next(long frame) {
        int ticks = 1;
        if (clock == GameConfig.Clock.REALTIME) {
            long now = System.nanoTime();
            accumulatedNanos += Math.min(now - lastNanos, 250_000_000L);
            lastNanos = now;
            ticks = (int) (accumulatedNanos / TICK_NANOS);
            if (ticks > Game.MAX_TICKS_PER_FRAME) {
                ticks = Game.MAX_TICKS_PER_FRAME;
                accumulatedNanos = 0;                // drop the backlog: slow down, do not spiral
            } else {
                accumulatedNanos -= ticks * TICK_NANOS;
            }
        }
        simTicks += ticks;
        CameraPath.at(simTicks * (double) FrameGraph.TICK_SECONDS, bounds, eye, target);
        camera.lookAt(eye, target);
        int w = display.framebufferWidth();
        int h = display.framebufferHeight();
        camera.viewProjection(w > 0 && h > 0 ? (float) w / h : 16f / 9f, viewProjection);
        return new FrameGraph.Input(frame, ticks, viewProjection, eye, target);
    }

    /** Ticks simulated so far, all frames together. */
    long simTicks() {
        return simTicks;
    }
}
