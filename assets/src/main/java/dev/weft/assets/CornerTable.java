package dev.weft.assets;

import java.util.Arrays;

/**
 * Deduplicates face corners: each distinct (v, vt, vn) triple of 1-based OBJ indices (0 = absent) becomes
 * one output vertex, numbered in order of first use. Open addressing with linear probing over int arrays;
 * a HashMap of boxed keys would allocate per corner and triple the parse time of a large mesh.
 */
final class CornerTable {
    private int[] slots;        // output vertex + 1 per slot; 0 = empty
    private int mask;
    private int[] keys = new int[3 * 1024];   // (v, vt, vn) per output vertex
    private int size;

    CornerTable(int expectedVertices) {
        int capacity = Integer.highestOneBit(Math.max(16, expectedVertices * 2) - 1) << 1;
        slots = new int[capacity];
        mask = capacity - 1;
    }

    /** The output vertex for this corner, adding it if new. */
    int vertexOf(int v, int vt, int vn) {
        int slot = hash(v, vt, vn) & mask;
        while (true) {
            int entry = slots[slot];
            if (entry == 0) {
                return insert(slot, v, vt, vn);
            }
            int k = (entry - 1) * 3;
            if (keys[k] == v && keys[k + 1] == vt && keys[k + 2] == vn) {
                return entry - 1;
            }
            slot = (slot + 1) & mask;
        }
    }

    int size() {
        return size;
    }

    int position(int vertex) {
        return keys[vertex * 3];
    }

    int uv(int vertex) {
        return keys[vertex * 3 + 1];
    }

    int normal(int vertex) {
        return keys[vertex * 3 + 2];
    }

    private int insert(int slot, int v, int vt, int vn) {
        if (size * 3 == keys.length) {
            keys = Arrays.copyOf(keys, keys.length * 2);
        }
        keys[size * 3] = v;
        keys[size * 3 + 1] = vt;
        keys[size * 3 + 2] = vn;
        slots[slot] = ++size;
        if (size * 2 > slots.length) {
            rehash();
        }
        return size - 1;
    }

    private void rehash() {
        slots = new int[slots.length * 2];
        mask = slots.length - 1;
        for (int vertex = 0; vertex < size; vertex++) {
            int slot = hash(keys[vertex * 3], keys[vertex * 3 + 1], keys[vertex * 3 + 2]) & mask;
            while (slots[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            slots[slot] = vertex + 1;
        }
    }

    private static int hash(int v, int vt, int vn) {
        int h = v * 0x9E3779B1 + vt * 0x85EBCA77 + vn * 0xC2B2AE3D;
        return h ^ (h >>> 15);
    }
}
