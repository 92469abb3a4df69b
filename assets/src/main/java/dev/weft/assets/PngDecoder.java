package dev.weft.assets;

import java.nio.ByteBuffer;
import org.lwjgl.stb.STBImage;
import org.lwjgl.system.MemoryUtil;

/**
 * Decodes PNG bytes into {@link TextureData} with LWJGL's stb_image. Pure: bytes in, pixels out, no file
 * access, so a worker job may call it on bytes an I/O thread read.
 *
 * <p>Checks before decoding: the PNG signature (stb would happily decode a JPEG or a TGA), then the
 * final IEND chunk (so a truncated read is caught even when stb could decode what is left; trailing
 * bytes after IEND are rejected too), then the IHDR header's dimensions against {@link #MAX_SIDE_PX} and
 * {@link #MAX_DECODED_BYTES}, so a corrupt or hostile header cannot make us allocate gigabytes. Every failure is an {@link AssetFormatException}
 * naming the file and, where stb gives one, its reason.
 *
 * <p>Threading: safe from any number of threads at once. stb keeps its failure reason in a thread-local
 * (LWJGL's build has a TLS segment for it) that it never clears, so each decode first sets a known mark
 * there (MARK_REASON); nothing between the mark, the failing call and reading the reason
 * can unmount a virtual thread from its carrier. The int[] overloads are used instead of
 * {@code MemoryStack} because a stack is per thread, and every fiber would allocate its own.
 */
public final class PngDecoder {
    /** Largest width or height accepted: 16384 is the largest texture side GPUs commonly support. */
    public static final int MAX_SIDE_PX = 16_384;
    /** Largest decoded size accepted (RGBA8): 256 MiB, a 8192² texture. */
    public static final long MAX_DECODED_BYTES = 256L << 20;

    private static final byte[] SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    private static final int IHDR = 0x49484452;                  // "IHDR", big-endian
    private static final int WIDTH_OFFSET = 16;                  // signature, chunk length, chunk type
    private static final int HEIGHT_OFFSET = 20;
    private static final int HEADER_BYTES = 24;
    private static final byte[] IEND_CHUNK = {0, 0, 0, 0, 'I', 'E', 'N', 'D', (byte) 0xAE, 0x42, 0x60, (byte) 0x82};

    // stb sets its (thread-local) failure reason only on some failures and never clears it, so a reason
    // left by an earlier failed decode on the same carrier would be reported for this file. Before each
    // decode, a probe that always fails sets a known reason; if the decode fails and the reason is still
    // that one, the decode gave none. The probe buffer is not an image of any format stb knows (the real
    // input has passed the PNG signature check, so stb never gives this reason for it).
    private static final ByteBuffer NOT_AN_IMAGE = ByteBuffer.allocateDirect(16);
    private static final String MARK_REASON;

    static {
        int[] w = new int[1], h = new int[1], c = new int[1];
        STBImage.stbi_info_from_memory(NOT_AN_IMAGE, w, h, c);
        MARK_REASON = STBImage.stbi_failure_reason();
    }

    private PngDecoder() {
    }

    /** Sets this thread's stb failure reason to {@link #MARK_REASON}; call right before a decode. */
    private static void markFailureReason(int[] w, int[] h, int[] c) {
        STBImage.stbi_info_from_memory(NOT_AN_IMAGE.duplicate(), w, h, c);
    }

    /**
     * Decodes a whole PNG file held in {@code png}.
     *
     * @param file the file's display name, for error messages and {@link TextureData#file()}
     * @param png the whole PNG file
     * @return the pixels, expanded to RGBA8, in native memory that {@link TextureData#close()} frees
     */
    public static TextureData decode(String file, byte[] png) {
        ByteBuffer nativeCopy = MemoryUtil.memAlloc(Math.max(1, png.length));
        try {
            nativeCopy.put(png).flip();
            return decodeDirect(file, nativeCopy);
        } finally {
            MemoryUtil.memFree(nativeCopy);
        }
    }

    /**
     * Decodes the PNG between {@code png}'s position and limit (neither is changed). A direct buffer is
     * read in place; a heap buffer is first copied to native memory, which stb needs.
     *
     * @param file the file's display name, for error messages and {@link TextureData#file()}
     * @param png the PNG file, between position and limit
     * @return the pixels, expanded to RGBA8, in native memory that {@link TextureData#close()} frees
     */
    public static TextureData decode(String file, ByteBuffer png) {
        if (png.isDirect()) {
            return decodeDirect(file, png.slice());
        }
        ByteBuffer nativeCopy = MemoryUtil.memAlloc(Math.max(1, png.remaining()));
        try {
            nativeCopy.put(png.duplicate()).flip();
            return decodeDirect(file, nativeCopy);
        } finally {
            MemoryUtil.memFree(nativeCopy);
        }
    }

    private static TextureData decodeDirect(String file, ByteBuffer png) {
        requireSignature(file, png);
        requireEnd(file, png);
        requireSaneSize(file, bigEndianInt(png, WIDTH_OFFSET), bigEndianInt(png, HEIGHT_OFFSET));
        int[] width = new int[1], height = new int[1], channels = new int[1];
        markFailureReason(width, height, channels);
        ByteBuffer rgba = STBImage.stbi_load_from_memory(png, width, height, channels, TextureData.BYTES_PER_PIXEL);
        if (rgba == null) {
            String reason = STBImage.stbi_failure_reason();
            boolean none = reason == null || reason.equals(MARK_REASON);   // this decode set no reason of its own
            throw new AssetFormatException(file, "corrupt PNG: " + (none ? "no reason given" : reason));
        }
        return new TextureData(file, width[0], height[0], channels[0], rgba);
    }

    /**
     * The signature, then the IHDR chunk, which PNG requires to come first: its dimensions are read here
     * rather than via stbi_info, because stb scans on past IHDR and rejects some huge sizes itself with a
     * less specific message.
     */
    private static void requireSignature(String file, ByteBuffer png) {
        if (png.remaining() < HEADER_BYTES) {
            throw new AssetFormatException(file, "not a PNG: only " + png.remaining() + " bytes");
        }
        for (int i = 0; i < SIGNATURE.length; i++) {
            if (png.get(png.position() + i) != SIGNATURE[i]) {
                throw new AssetFormatException(file, "not a PNG: bad signature");
            }
        }
        if (bigEndianInt(png, SIGNATURE.length + 4) != IHDR) {
            throw new AssetFormatException(file, "corrupt PNG: first chunk is not IHDR");
        }
    }

    /**
     * A PNG ends with the fixed 12-byte IEND chunk. stb never reads it, so without this check a file cut
     * short by a partial read would decode "fine" whenever the cut falls after the pixel data.
     */
    private static void requireEnd(String file, ByteBuffer png) {
        int end = png.limit() - IEND_CHUNK.length;
        for (int i = 0; i < IEND_CHUNK.length; i++) {
            if (end < png.position() + HEADER_BYTES || png.get(end + i) != IEND_CHUNK[i]) {
                int iend = lastIend(png);
                if (iend >= 0) {                       // the end is there, with bytes after it: not a cut file
                    throw new AssetFormatException(file, "PNG with " + (png.limit() - iend - IEND_CHUNK.length)
                            + " bytes after its IEND chunk (trailing data: a file written twice, or two files joined?)");
                }
                throw new AssetFormatException(file, "truncated PNG: " + png.remaining() + " bytes, no IEND chunk at the end");
            }
        }
    }

    /** Where the last IEND chunk starts, or -1 (error path only: a scan of the whole file). */
    private static int lastIend(ByteBuffer png) {
        for (int at = png.limit() - IEND_CHUNK.length; at >= png.position() + HEADER_BYTES; at--) {
            int i = 0;
            while (i < IEND_CHUNK.length && png.get(at + i) == IEND_CHUNK[i]) {
                i++;
            }
            if (i == IEND_CHUNK.length) {
                return at;
            }
        }
        return -1;
    }

    /** PNG integers are big-endian; read byte by byte so the buffer's own byte order does not matter. */
    private static int bigEndianInt(ByteBuffer png, int offset) {
        int at = png.position() + offset;
        return (png.get(at) & 0xFF) << 24 | (png.get(at + 1) & 0xFF) << 16 | (png.get(at + 2) & 0xFF) << 8 | png.get(at + 3) & 0xFF;
    }

    private static void requireSaneSize(String file, int widthPx, int heightPx) {
        long bytes = (long) widthPx * heightPx * TextureData.BYTES_PER_PIXEL;
        if (widthPx <= 0 || heightPx <= 0 || widthPx > MAX_SIDE_PX || heightPx > MAX_SIDE_PX || bytes > MAX_DECODED_BYTES) {
            throw new AssetFormatException(file, "absurd PNG dimensions " + widthPx + "x" + heightPx
                    + " (limit " + MAX_SIDE_PX + " per side, " + (MAX_DECODED_BYTES >> 20) + " MiB decoded)");
        }
    }

}
