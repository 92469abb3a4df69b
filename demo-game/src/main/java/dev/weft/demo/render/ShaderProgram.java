package dev.weft.demo.render;

import static org.lwjgl.opengl.GL33C.*;

/** A linked vertex + fragment program. GL thread only. */
final class ShaderProgram {
    final int id;

    ShaderProgram(String name, String vertexSource, String fragmentSource) {
        int vs = compile(name + ".vert", GL_VERTEX_SHADER, vertexSource);
        int fs;
        try {
            fs = compile(name + ".frag", GL_FRAGMENT_SHADER, fragmentSource);
        } catch (RuntimeException e) {
            glDeleteShader(vs);
            throw e;
        }
        int program = glCreateProgram();
        glAttachShader(program, vs);
        glAttachShader(program, fs);
        glLinkProgram(program);
        glDetachShader(program, vs);
        glDetachShader(program, fs);
        glDeleteShader(vs);
        glDeleteShader(fs);
        if (glGetProgrami(program, GL_LINK_STATUS) != GL_TRUE) {
            String log = glGetProgramInfoLog(program);
            glDeleteProgram(program);
            throw new IllegalStateException("linking " + name + " failed: " + log.strip());
        }
        this.id = program;
    }

    private static int compile(String name, int type, String source) {
        int shader = glCreateShader(type);
        glShaderSource(shader, source);
        glCompileShader(shader);
        if (glGetShaderi(shader, GL_COMPILE_STATUS) != GL_TRUE) {
            String log = glGetShaderInfoLog(shader);
            glDeleteShader(shader);
            throw new IllegalStateException("compiling " + name + " failed: " + log.strip());
        }
        return shader;
    }

    /** A uniform's location; fails loudly on a typo (the GLSL compiler drops unused uniforms too). */
    int uniform(String name) {
        int loc = glGetUniformLocation(id, name);
        if (loc < 0) {
            throw new IllegalStateException("no active uniform " + name);
        }
        return loc;
    }

    void use() {
        glUseProgram(id);
    }

    void delete() {
        glDeleteProgram(id);
    }
}
