package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The library as the JPMS module {@code dev.weft.assets}, loaded in a module layer of its own (as a
 * game on the module path loads it): it exports only {@code dev.weft.assets} (the generator is not API),
 * and {@link AssetSource#classpath()} still finds the shipped levels, which a class loader would not:
 * they are resources of a named module in packages it does not open.
 */
class ModuleDescriptorTest {
    @Test
    void theModuleExportsOnlyTheApiPackageAndReadsItsOwnLevels() throws Exception {
        ModuleLayer layer = moduleLayer();
        Module assets = layer.findModule("dev.weft.assets").orElseThrow();
        assertTrue(assets.isNamed());
        Set<String> exported = assets.getDescriptor().exports().stream()
                .map(ModuleDescriptor.Exports::source).collect(Collectors.toSet());
        assertEquals(Set.of("dev.weft.assets"), exported);
        assertTrue(assets.getPackages().contains("dev.weft.assets.gen"), "the generator ships in the jar");

        Class<?> sourceType = Class.forName("dev.weft.assets.AssetSource", true, assets.getClassLoader());
        Object source = sourceType.getMethod("classpath").invoke(null);
        byte[] level = (byte[]) sourceType.getMethod("read", String.class).invoke(source, "tiny/tiny.level");
        byte[] png = (byte[]) sourceType.getMethod("read", String.class).invoke(source, "tiny/textures/grass_64.png");
        assertTrue(level.length > 0 && png.length > 8, "read the level and a texture inside the module");
    }

    /** dev.weft.assets and what it requires (engine-jobs, JCTools core and jdk11, LWJGL), resolved as modules. */
    private static ModuleLayer moduleLayer() throws Exception {
        ModuleFinder finder = ModuleFinder.of(locationOf(AssetSource.class), locationOf(dev.weft.JobSystem.class),
                locationOf(org.jctools.queues.MpscArrayQueue.class),
                locationOf(org.jctools.queues.varhandle.MpscVarHandleArrayQueue.class), locationOf(org.lwjgl.system.MemoryUtil.class),
                locationOf(org.lwjgl.stb.STBImage.class));
        Configuration cf = ModuleLayer.boot().configuration().resolve(finder, ModuleFinder.of(), Set.of("dev.weft.assets"));
        return ModuleLayer.boot().defineModulesWithOneLoader(cf, ClassLoader.getPlatformClassLoader());
    }

    private static Path locationOf(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
