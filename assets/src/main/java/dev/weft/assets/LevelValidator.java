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
 *
 * <p>Strict, it throws the first error. Given {@link Repairs} ({@link LevelFileSalvage}), it hands each
 * error to them, and they repair the parser's model in place; it then goes on from where it was, which
 * finds the same next error, with the same message, as validating the repaired file from the start:
 * what it checked before still holds, because a repair only declares assets, replaces the line in error,
 * or drops an entity. A repair that removes an asset could break a reference already checked, so
 * validation stops there and the caller starts again.
 */
final class LevelValidator {
    /** What a repairing validation does with an error. */
    @FunctionalInterface
    interface Repairs {
        /**
         * Repairs {@code error} in the model being validated.
         *
         * @param error the error, with its 1-based line
         * @return false if the repair removed an asset, so validation cannot go on
         * @throws AssetFormatException to stop validating (an error that cannot be repaired)
         */
        boolean repair(AssetFormatException error);
    }

    private static final Repairs STRICT = e -> {
        throw e;
    };

    private final String file;
    private final Map<String, LevelAsset> assets;   // live: repairs change it as validation goes
    private final Map<Integer, String> lines;       // live too: a line a repair dropped has none
    private final Repairs repairs;

    private LevelValidator(String file, Map<String, LevelAsset> assets, Map<Integer, String> lines, Repairs repairs) {
        this.file = file;
        this.assets = assets;
        this.lines = lines;
        this.repairs = repairs;
    }

    /** Validates and returns the assets in load order (dependencies first, otherwise declaration order). */
    static List<LevelAsset> validate(String file, Map<String, LevelAsset> assets, List<LevelEntity> entities,
                                     Map<Integer, String> lines) {
        LevelValidator validator = new LevelValidator(file, assets, lines, STRICT);
        List<LevelAsset> order = new ArrayList<>(assets.size());
        validator.references(entities);
        validator.loadOrderOrCycle(order);
        validator.kinds(entities);
        return order;
    }

    /**
     * Validates {@code parsed}, handing every error to {@code repairs}, which repair it in place.
     *
     * @return false if a repair removed an asset and validation stopped there
     */
    static boolean repair(String file, LevelFileParser parsed, Repairs repairs) {
        LevelValidator validator = new LevelValidator(file, parsed.assets(), parsed.lines(), repairs);
        List<LevelEntity> entities = parsed.entities();
        return validator.references(entities) && validator.loadOrderOrCycle(new ArrayList<>())
                && validator.kinds(entities);
    }

    private boolean references(List<LevelEntity> entities) {
        // A copy: the assets a repair declares are placeholders, whose references resolve.
        for (LevelAsset asset : List.copyOf(assets.values())) {
            for (String dependency : asset.dependsOn()) {
                if (!known(dependency, asset.line())) {
                    return false;
                }
            }
        }
        for (LevelEntity entity : entities) {
            for (String dependency : entity.dependsOn()) {
                if (live(entity) && !known(dependency, entity.line())) {
                    return false;
                }
            }
        }
        return true;
    }

    private boolean known(String name, int line) {
        return assets.containsKey(name) || repairs.repair(
                new AssetFormatException(file, line, "unknown asset '" + name + "' in '" + lines.get(line) + "'"));
    }

    /** False once a repair dropped the entity's line. */
    private boolean live(LevelEntity entity) {
        return lines.containsKey(entity.line());
    }

    /**
     * Depth-first post-order over the assets into {@code order}; meeting an asset still on the path means a
     * cycle. Once a repair has rewired the asset that closed it, the walk starts again from the same root:
     * what is done stays done (nothing done reaches that asset, or the cycle would have been met then), so
     * the next cycle met is the one a walk from scratch would meet.
     */
    private boolean loadOrderOrCycle(List<LevelAsset> order) {
        Map<String, Boolean> onPath = new HashMap<>();   // absent: unvisited; true: on the path; false: done
        List<LevelAsset> roots = List.copyOf(assets.values());   // a repair's placeholders have no cycle
        roots:
        for (int r = 0; r < roots.size(); r++) {
            LevelAsset root = assets.get(roots.get(r).name());   // as repaired
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
                    if (!repairs.repair(cycle(path, dependency))) {
                        return false;
                    }
                    path.forEach(a -> onPath.remove(a.name()));
                    r--;
                    continue roots;
                }
            }
        }
        return true;
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

    private boolean kinds(List<LevelEntity> entities) {
        for (LevelAsset asset : List.copyOf(assets.values())) {
            if (asset.kind() == AssetKind.COLLISION
                    && !ofKind(asset.dependsOn().get(0), AssetKind.MESH, "from", asset.line())) {
                return false;
            }
        }
        // A repair of one reference rewrites that reference only: the entity's others are as they were.
        for (LevelEntity entity : entities) {
            boolean ok = !live(entity) || ofKind(entity.mesh(), AssetKind.MESH, "mesh=", entity.line());
            ok = ok && (!live(entity) || ofKind(entity.texture(), AssetKind.TEXTURE, "texture=", entity.line()));
            ok = ok && (!live(entity) || entity.collision() == null
                    || ofKind(entity.collision(), AssetKind.COLLISION, "collision=", entity.line()));
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private boolean ofKind(String name, AssetKind expected, String where, int line) {
        AssetKind actual = assets.get(name).kind();
        return actual == expected || repairs.repair(new AssetFormatException(file, line, "'" + name + "' is a "
                + actual.keyword() + " but '" + where + "' needs a " + expected.keyword() + " in '" + lines.get(line) + "'"));
    }
}
