package dev.weft.demo.render;

import java.util.Objects;
import org.joml.Matrix4f;
import org.joml.Matrix4fc;

/**
 * One textured mesh to draw with the lit shader.
 *
 * @param model object-to-world transform; copied at construction, so the caller may reuse its matrix
 */
public record DrawCommand(Mesh mesh, Texture texture, Matrix4fc model) {
    public DrawCommand {
        Objects.requireNonNull(mesh, "mesh");
        Objects.requireNonNull(texture, "texture");
        model = new Matrix4f(Objects.requireNonNull(model, "model"));
    }
}
