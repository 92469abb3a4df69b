package dev.weft.demo.game;

import java.util.Arrays;

/**
 * One worker's build output for the current frame: its commands and the chunks (ranges) they came from.
 * Written only by its worker in the build stage; read by the merge job after the build counter reached
 * zero (the counter's decrement and await order the writes before the reads).
 */
final class WorkerCommands {
    final CommandBuffer buffer = new CommandBuffer(256);
    int[] chunkStart = new int[16];   // entity index the range started at
    int[] chunkOffset = new int[16];  // first command of the chunk in buffer
    int[] chunkCount = new int[16];   // commands in the chunk
    int chunks;

    void clear() {
        buffer.clear();
        chunks = 0;
    }

    void addChunk(int start, int offset, int count) {
        if (chunks == chunkStart.length) {
            chunkStart = Arrays.copyOf(chunkStart, chunks * 2);
            chunkOffset = Arrays.copyOf(chunkOffset, chunks * 2);
            chunkCount = Arrays.copyOf(chunkCount, chunks * 2);
        }
        chunkStart[chunks] = start;
        chunkOffset[chunks] = offset;
        chunkCount[chunks] = count;
        chunks++;
    }
}
