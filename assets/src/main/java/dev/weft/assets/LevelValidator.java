package dev.weft.assets;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The cross-reference half of {@link LevelFile#parse}, run once every line is read. Checks, in this
 * order so the most fundamental problem is the one reported: every name used resolves; the asset graph
 * has no cycle; every reference points at the right kind of asset. The cycle check does not look at kinds,
 * so a new derived kind (say {@code lod x from mesh}) gets it for free.
 */
final class LevelValidator {
    private final String file;
    private final Map<String, LevelAsset> assets;
    private final Map<Integer, String> lines;

    private LevelValidator(String file, Map<String, LevelAsset> assets, Map<Integer, String> lines) {
        this.file = file;
        this.assets = assets;
        this.lines = lines;
    }

    /** Validates and returns the assets in load order (dependencies first, otherwise declaration order). */
    static List<LevelAsset> validate(String file, Map<String, LevelAsset> assets, List<LevelEntity> entities,
                                     Map<Integer, String> lines) {
        LevelValidator validator = new LevelValidator(file, assets, lines);
        validator.references(entities);
        List<LevelAsset> order = validator.loadOrderOrCycle();
        validator.kinds(entities);
        return order;
    }

    private void references(List<LevelEntity> entities) {
        for (LevelAsset asset : assets.values()) {
            for (String dependency : asset.dependsOn()) {
                requireKnown(dependency, asset.line());
            }
        }
        for (LevelEntity entity : entities) {
            for (String dependency : entity.dependsOn()) {
                requireKnown(dependency, entity.line());
            }
        }
    }

    private void requireKnown(String name, int line) {
        if (!assets.containsKey(name)) {
            throw new AssetFormatException(file, line, "unknown asset '" + name + "' in '" + lines.get(line) + "'");
        }
    }

    /** Depth-first post-order over the assets; meeting an asset still on the path means a cycle. */
    private List<LevelAsset> loadOrderOrCycle() {
        Map<String, Boolean> onPath = new HashMap<>();   // absent: unvisited; true: on the path; false: done
        List<LevelAsset> order = new ArrayList<>(assets.size());
        for (LevelAsset root : assets.values()) {
            if (onPath.containsKey(root.name())) {
                continue;
            }
            Deque<LevelAsset> path = new ArrayDeque<>();
            Deque<Integer> nextDependency = new ArrayDeque<>();
            path.push(root);
            nextDependency.push(0);
            onPath.put(root.name(), true);
            while (!path.isEmpty()) {
                LevelAsset top = path.peek();
                int next = nextDependency.pop();
                if (next == top.dependsOn().size()) {
                    path.pop();
                    onPath.put(top.name(), false);
                    order.add(top);
                    continue;
                }
                nextDependency.push(next + 1);
                LevelAsset dependency = assets.get(top.dependsOn().get(next));
                Boolean state = onPath.get(dependency.name());
                if (state == null) {
                    path.push(dependency);
                    nextDependency.push(0);
                    onPath.put(dependency.name(), true);
                } else if (state) {
                    throw cycle(path, dependency);
                }
            }
        }
        return order;
    }

    /** Names the cycle from the asset seen twice, round to itself: {@code a (line 3) -> b (line 4) -> a}. */
    private AssetFormatException cycle(Deque<LevelAsset> path, LevelAsset repeated) {
        List<LevelAsset> loop = new ArrayList<>();
        for (var it = path.descendingIterator(); it.hasNext(); ) {   // from the root down to the top
            LevelAsset asset = it.next();
            if (asset == repeated || !loop.isEmpty()) {
                loop.add(asset);
            }
        }
        StringBuilder text = new StringBuilder("dependency cycle: ");
        for (LevelAsset asset : loop) {
            text.append(asset.name()).append(" (line ").append(asset.line()).append(") -> ");
        }
        text.append(repeated.name());
        return new AssetFormatException(file, repeated.line(), text.toString());
    }

    private void kinds(List<LevelEntity> entities) {
        for (LevelAsset asset : assets.values()) {
            if (asset.kind() == AssetKind.COLLISION) {
                requireKind(asset.dependsOn().get(0), AssetKind.MESH, "from", asset.line());
            }
        }
        for (LevelEntity entity : entities) {
            requireKind(entity.mesh(), AssetKind.MESH, "mesh=", entity.line());
            requireKind(entity.texture(), AssetKind.TEXTURE, "texture=", entity.line());
            if (entity.collision() != null) {
                requireKind(entity.collision(), AssetKind.COLLISION, "collision=", entity.line());
            }
        }
    }

    private void requireKind(String name, AssetKind expected, String where, int line) {
        AssetKind actual = assets.get(name).kind();
        if (actual != expected) {
            throw new AssetFormatException(file, line, "'" + name + "' is a " + actual.keyword() + " but '" + where
                    + "' needs a " + expected.keyword() + " in '" + lines.get(line) + "'");
        }
    }
}
