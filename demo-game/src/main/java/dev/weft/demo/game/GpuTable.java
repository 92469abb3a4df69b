package dev.weft.demo.game;

import dev.weft.assets.ProceduralMeshes;
import dev.weft.demo.render.Mesh;
import dev.weft.demo.render.ProceduralTextures;
import dev.weft.demo.render.Renderer;
import dev.weft.demo.render.Texture;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** GPU resources by id: agent meshes/textures first, then the level's. Main thread only. */
final class GpuTable {
    final List<Mesh> meshes = new ArrayList<>();
    final List<Texture> textures = new ArrayList<>();
    final Map<String, Integer> levelMeshIds = new HashMap<>();
    final Map<String, Integer> levelTextureIds = new HashMap<>();

    /** Uploads the agents' meshes (cube, ball) and textures; returns each mesh's scale per unit half extent. */
    float[] uploadAgentAssets(Renderer renderer) {
        meshes.add(renderer.uploadMesh(ProceduralMeshes.cube(1f)));       // edge 1: scale by 2 * half
        meshes.add(renderer.uploadMesh(Shapes.uvSphere(1f, 16, 12)));     // radius 1: scale by half
        int[][] colours = {{0xE8A040, 0xF4E6C8}, {0x3C78C8, 0xDCE8F4}, {0xC84040, 0xF0D0D0}, {0x8050B0, 0xE0D0F0}};
        for (int[] c : colours) {
            textures.add(renderer.uploadTexture(ProceduralTextures.checker(64, 4, c[0], c[1])));
        }
        return new float[] {2f, 1f};
    }

    /** Ids 0..n-1: the agent kinds uploaded first. */
    static int[] firstIds(int n) {
        int[] ids = new int[n];
        for (int k = 0; k < n; k++) {
            ids[k] = k;
        }
        return ids;
    }
}
