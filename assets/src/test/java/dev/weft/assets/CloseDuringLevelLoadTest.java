package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A level load in flight when its {@link AssetManager} is closed ends CANCELLED with one failure naming the
 * close. It ended FAILED ("no usable level file", per {@link LevelLoad#progress()}) with whichever failure
 * the close caused on the level job's path: "cancelled; the level cannot load", "asset manager is closed;
 * cannot load texture:...; the level cannot load" or "the I/O pool was closed before it ran; the level
 * cannot load" (90, 160 and 39 of 300 loads closed at random moments in a probe).
 */
@Timeout(120)
class CloseDuringLevelLoadTest extends WithJobSystem {

    @Test
    void aLevelLoadingWhenItsManagerClosesEndsCancelledSayingSo() throws Exception {
        CountDownLatch reading = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AssetSource source = new Fixture.ForwardingSource(AssetSource.inMemory(Fixture.oneTextureLevel())) {
            @Override
            public byte[] read(String path) throws IOException {
                if (path.equals("lvl/textures/t0.png")) {
                    reading.countDown();
                    try {                                      // an I/O thread: may block
                        release.await(Fixture.TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                }
                return super.read(path);
            }
        };
        LevelLoad load;
        try (AssetManager assets = AssetManager.builder(jobs).source(source).build()) {
            load = new LevelLoader(assets).load("lvl");
            assertTrue(reading.await(Fixture.TIMEOUT.toSeconds(), TimeUnit.SECONDS), "the texture's read started");
        } finally {
            release.countDown();
        }
        Fixture.awaitLoad(load);
        List<String> messages = load.failures().stream().map(LoadFailure::message).toList();
        assertEquals(LoadProgress.Outcome.CANCELLED, load.progress().outcome(), messages.toString());
        assertEquals(List.of("lvl: the asset manager was closed while the level loaded; load cancelled"), messages);
        assertTrue(load.level().isEmpty());
    }
}
