"""Build configuration for the compiled move generator (everything else is in pyproject.toml).

The extension is optional: where it cannot be compiled, the package still
installs and engine.movegen falls back to its pure-Python generator.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "engine._core",
            sources=["engine/_core.c"],
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Wextra", "-Wno-unused-parameter",
                                "-Wno-missing-field-initializers", "-Wno-cast-function-type"],
            optional=True,
        )
    ]
)
