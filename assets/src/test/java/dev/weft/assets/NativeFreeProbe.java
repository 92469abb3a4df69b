package dev.weft.assets;

import java.util.concurrent.atomic.AtomicLong;
import org.lwjgl.system.Configuration;
import org.lwjgl.system.MemoryUtil;

/**
 * Run in a child JVM by {@link PngDecoderTest}: turns on LWJGL's debug allocator, including allocations
 * made inside natives (stb's malloc), then prints how many bytes are live after decode and after close.
 */
public final class NativeFreeProbe {
    private NativeFreeProbe() {
    }

    public static void main(String[] args) {
        Configuration.DEBUG_MEMORY_ALLOCATOR.set(true);
        Configuration.DEBUG_MEMORY_ALLOCATOR_INTERNAL.set(true);
        byte[] png = TestResources.bytes(args[0]);
        PngDecoder.decode(args[0], png).close();   // warm-up: LWJGL's own lazy allocations happen here
        long baseline = liveBytes();
        TextureData texture = PngDecoder.decode(args[0], png);
        System.out.println("decoded: +" + (liveBytes() - baseline) + " bytes live");
        texture.close();
        System.out.println("closed: +" + (liveBytes() - baseline) + " bytes live");
        texture.close();
        System.out.println("closed again: +" + (liveBytes() - baseline) + " bytes live");
    }

    private static long liveBytes() {
        AtomicLong total = new AtomicLong();
        MemoryUtil.memReport((address, memory, threadId, threadName, stacktrace) -> total.addAndGet(memory));
        return total.get();
    }
}
