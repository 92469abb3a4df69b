package dev.weft.demo.render;

/** GLSL 330 core sources. Attribute locations match {@link GlRenderer}'s VAO layouts. */
final class Shaders {
    private Shaders() {}

    static final String LIT_VERTEX = """
            #version 330 core
            layout(location = 0) in vec3 aPosition;
            layout(location = 1) in vec3 aNormal;
            layout(location = 2) in vec2 aUv;
            uniform mat4 uModel;
            uniform mat4 uViewProjection;
            uniform mat3 uNormalMatrix;
            out vec3 vNormal;
            out vec2 vUv;
            void main() {
                vNormal = uNormalMatrix * aNormal;
                vUv = aUv;
                gl_Position = uViewProjection * uModel * vec4(aPosition, 1.0);
            }
            """;

    static final String LIT_FRAGMENT = """
            #version 330 core
            in vec3 vNormal;
            in vec2 vUv;
            uniform sampler2D uAlbedo;
            uniform vec3 uLightDirection;   // the way the light travels, normalised
            uniform vec3 uLightColour;
            uniform vec3 uAmbient;
            out vec4 fragColour;
            void main() {
                vec3 n = normalize(vNormal);
                float diffuse = max(dot(n, -uLightDirection), 0.0);
                vec4 albedo = texture(uAlbedo, vUv);
                fragColour = vec4(albedo.rgb * (uAmbient + uLightColour * diffuse), 1.0);
            }
            """;

    /** Pixel-space quads (origin top-left, y down) with per-vertex colour. */
    static final String OVERLAY_VERTEX = """
            #version 330 core
            layout(location = 0) in vec2 aPixel;
            layout(location = 1) in vec4 aColour;
            uniform vec2 uViewportSize;
            out vec4 vColour;
            void main() {
                vec2 ndc = vec2(aPixel.x / uViewportSize.x * 2.0 - 1.0, 1.0 - aPixel.y / uViewportSize.y * 2.0);
                vColour = aColour;
                gl_Position = vec4(ndc, 0.0, 1.0);
            }
            """;

    static final String OVERLAY_FRAGMENT = """
            #version 330 core
            in vec4 vColour;
            out vec4 fragColour;
            void main() {
                fragColour = vColour;
            }
            """;
}
