package dev.weft.assets;

/**
 * Builds an asset of a derived kind (no file of its own) from another asset, the way
 * {@link CollisionCodec} builds a BVH from a mesh. The manager requests the source like any other asset,
 * parks until it is loaded, runs {@link #build} in the decode lane, and falls back to
 * {@link #placeholder} if the build throws. Registered in a {@link CodecRegistry} under its kind.
 *
 * <p>Threading: {@link #build} and {@link #placeholder} run on workers, possibly several at once, so a
 * codec keeps no mutable state. A derived asset is never uploaded.
 *
 * @param <S> the source asset's type
 */
public interface DerivedCodec<S extends LoadedAsset> {
    /** The derived kind this codec makes. */
    AssetKind kind();

    /** The asset {@code id} is built from. */
    AssetId sourceOf(AssetId id);

    /** The source's type, to cast what the manager loaded. */
    Class<S> sourceType();

    /** Builds {@code id} from its loaded source (which may itself be a placeholder). */
    LoadedAsset build(AssetId id, S source);

    /** What stands in when {@link #build} failed. */
    LoadedAsset placeholder(AssetId id);

    /** How a {@link LoadFailure} says what replaced the asset. */
    default String fallback() {
        return "using a placeholder";
    }
}
