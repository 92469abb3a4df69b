package dev.weft.assets;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Where asset bytes come from. Paths are relative to a levels root and {@code '/'}-separated: level
 * {@code tiny} lives at {@code tiny/tiny.level}, its files at {@code tiny/textures/grass_64.png} (the
 * layout of {@link LevelResources}).
 *
 * <p>Threading: {@link #read} and {@link #size} block on I/O, so only {@link IoPool}'s platform threads
 * call them, never a job: a Weft fiber is a virtual thread whose carrier is a worker, and a virtual
 * thread blocks its carrier on file I/O. Implementations must be safe for concurrent calls.
 */
public interface AssetSource {

    /**
     * The whole file.
     *
     * @param path the file's path, relative to the levels root
     * @return the file's bytes; never null (a null read is reported as an I/O failure of the file)
     * @throws NoSuchFileException if it does not exist
     * @throws IOException if it could not be read
     */
    byte[] read(String path) throws IOException;

    /**
     * The file's size in bytes, or -1 if it is missing or the size is unknown.
     *
     * @param path the file's path, relative to the levels root
     * @return the size in bytes, or -1
     * @throws IOException if the size could not be read
     */
    long size(String path) throws IOException;

    /**
     * How errors name the file: the classpath resource, the absolute path, ...
     *
     * @param path the file's path, relative to the levels root
     * @return the name to use in messages
     */
    String displayName(String path);

    /**
     * The levels shipped in this library's jar, under {@link LevelResources#ROOT}. Read through
     * {@code Class.getResourceAsStream}, not the class loader: on the module path they are resources of
     * the module {@code dev.weft.assets}, which a class loader finds only in opened packages, but the
     * module's own code always can.
     *
     * @return the shipped levels' source
     */
    static AssetSource classpath() {
        return resources(name -> AssetSource.class.getResourceAsStream("/" + name),
                name -> AssetSource.class.getResource("/" + name));
    }

    /**
     * Levels on {@code loader}'s class path under {@link LevelResources#ROOT}. On the module path, the
     * module holding them must open their packages (a class loader finds no other module resources).
     *
     * @param loader the class loader to find the levels with; not null
     * @return a source reading the levels through {@code loader}
     */
    static AssetSource classpath(ClassLoader loader) {
        Objects.requireNonNull(loader, "loader");
        return resources(loader::getResourceAsStream, loader::getResource);
    }

    private static AssetSource resources(Function<String, InputStream> open, Function<String, URL> find) {
        return new AssetSource() {
            @Override
            public byte[] read(String path) throws IOException {
                try (InputStream in = open.apply(displayName(path))) {
                    if (in == null) {
                        throw new NoSuchFileException(displayName(path), null, "no such classpath resource");
                    }
                    return in.readAllBytes();
                }
            }

            @Override
            public long size(String path) throws IOException {
                URL url = find.apply(displayName(path));
                if (url == null) {
                    return -1;
                }
                if (url.getProtocol().equals("file")) {
                    // A file: URLConnection opens the file to answer getContentLength and never closes it:
                    // one descriptor per asset per level load (classes in a directory: IDE, mvn exec, tests)
                    // until a GC runs its cleaner. Ask the file system instead.
                    try {
                        Path p = Path.of(url.toURI());
                        return Files.isRegularFile(p) ? Files.size(p) : -1;
                    } catch (java.net.URISyntaxException | IllegalArgumentException e) {
                        throw new IOException(displayName(path) + ": cannot take the size of " + url + ": " + e, e);
                    }
                }
                URLConnection c = url.openConnection();    // jar: answers from the (cached) jar's entry
                return c.getContentLengthLong();
            }

            @Override
            public String displayName(String path) {
                return LevelResources.ROOT + path;
            }

            @Override
            public String toString() {
                return "classpath:" + LevelResources.ROOT;
            }
        };
    }

    /** {@code path} for messages: each control character as a backslash, a 'u' and four hex digits. */
    private static String printable(String path) {
        StringBuilder sb = new StringBuilder(path.length());
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (Character.isISOControl(c)) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /**
     * Levels in a directory: {@code root/tiny/tiny.level} and so on. Paths may not leave {@code root}.
     *
     * @param root the levels directory
     * @return a source reading files under {@code root}
     */
    static AssetSource directory(Path root) {
        Path base = root.toAbsolutePath().normalize();
        return new AssetSource() {
            private Path resolve(String path) throws NoSuchFileException {
                Path p;
                try {
                    p = base.resolve(path).normalize();
                } catch (InvalidPathException e) {     // a NUL byte, say: no file can have that name
                    throw new NoSuchFileException(displayName(path), null, "not a valid file name: " + e.getReason());
                }
                if (!p.startsWith(base)) {
                    throw new NoSuchFileException(p.toString(), null, "outside the levels directory " + base);
                }
                return p;
            }

            @Override
            public byte[] read(String path) throws IOException {
                return Files.readAllBytes(resolve(path));
            }

            @Override
            public long size(String path) throws IOException {
                Path p = resolve(path);
                return Files.isRegularFile(p) ? Files.size(p) : -1;
            }

            @Override
            public String displayName(String path) {
                try {
                    return base.resolve(path).normalize().toString();
                } catch (InvalidPathException e) {     // named in messages as given, control bytes escaped
                    return base + java.io.File.separator + printable(path);
                }
            }

            @Override
            public String toString() {
                return "directory:" + base;
            }
        };
    }

    /**
     * Files held in memory, by path (tests, generated content). The map is copied.
     *
     * @param files file contents by path; copied, so later changes to the map do not show
     * @return a source serving copies of those bytes
     */
    static AssetSource inMemory(Map<String, byte[]> files) {
        Map<String, byte[]> copy = Map.copyOf(files);
        return new AssetSource() {
            @Override
            public byte[] read(String path) throws IOException {
                byte[] b = copy.get(path);
                if (b == null) {
                    throw new NoSuchFileException(displayName(path), null, "no such file in memory");
                }
                return b.clone();
            }

            @Override
            public long size(String path) {
                byte[] b = copy.get(path);
                return b == null ? -1 : b.length;
            }

            @Override
            public String displayName(String path) {
                return "mem:" + path;
            }

            @Override
            public String toString() {
                return "inMemory[" + copy.size() + " files]";
            }
        };
    }
}
