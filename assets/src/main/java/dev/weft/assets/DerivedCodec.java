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
    /**
     * The derived kind this codec makes.
     *
     * @return the derived kind
     */
    AssetKind kind();

    /**
     * The asset {@code id} is built from.
     *
     * @param id a derived asset of this codec's kind
     * @return the id of the asset it is built from
     */
    AssetId sourceOf(AssetId id);

    /**
     * The source's type, to cast what the manager loaded.
     *
     * @return the class of the source asset
     */
    Class<S> sourceType();

    /**
     * Builds {@code id} from its loaded source (which may itself be a placeholder).
     *
     * @param id the asset to build
     * @param source its loaded source
     * @return the built asset
     */
    LoadedAsset build(AssetId id, S source);

    /**
     * What stands in when {@link #build} failed.
     *
     * @param id the asset that failed to build
     * @return the stand-in asset
     */
    LoadedAsset placeholder(AssetId id);

    /**
     * How a {@link LoadFailure} says what replaced the asset.
     *
     * @return the words a failure uses for the stand-in
     */
    default String fallback() {
        return "using a placeholder";
    }
}
