package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link LevelFileSalvage} on its own: which repairs it makes. */
class LevelFileSalvageTest {

    /**
     * The second reference of the wrong kind declared the shared placeholder again, and the whole level was
     * refused with "duplicate asset '__placeholder_mesh'" on a line past the end of the file.
     */
    @Test
    void referencesOfTheWrongKindShareOnePlaceholder() {
        String text = """
                weft-level 1
                texture t textures/t.png
                mesh m meshes/m.obj
                entity a mesh=t texture=t 0 0 0
                entity b mesh=t texture=m 1 0 0
                entity c mesh=m texture=m 2 0 0
                """;
        LevelFileSalvage.Result r = LevelFileSalvage.parse("lvl", "lvl.level", Fixture.ascii(text), CodecRegistry.defaults());
        assertEquals(List.of(4, 5, 5, 6), r.failures().stream().map(LoadFailure::line).toList(), r.failures().toString());
        assertEquals(List.of("__placeholder_mesh", "__placeholder_mesh", "m"),
                r.level().entities().stream().map(LevelEntity::mesh).toList());
        assertEquals(List.of("t", "__placeholder_texture", "__placeholder_texture"),
                r.level().entities().stream().map(LevelEntity::texture).toList());
    }
}
