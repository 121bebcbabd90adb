#pragma once
// Reader for STL triangle meshes, binary and ASCII, with the checks that make inside/outside well defined: a
// closed, consistently oriented surface of finite, non-degenerate triangles.
#include <array>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "src/geometry/body.hpp"

namespace aerolbm {

// Three vertices in the file's order (model units). The facet normal stored in STL files is ignored: exporters
// often write zeros, and the vertex order already gives the orientation. Coordinates are 32-bit floats widened
// to double (ASCII values are rounded to float, as binary STL stores them, so both encodings read the same).
// (Triangle itself is declared in body.hpp.)

struct StlMesh {
  std::vector<Triangle> triangles;    // the non-degenerate triangles, file order
  bool binary = false;                // which encoding the file used
  std::size_t dropped_degenerate = 0; // zero-area triangles that were left out (callers may mention it)
};

// Binary vs ASCII: a file whose size is exactly 84 + 50·n, n being the count at byte 80, is binary even when its
// header starts with "solid" (many exporters write that); otherwise a file starting with "solid" is ASCII; any
// other file is binary and its size must match.
//
// Throws GeometryError whose message starts with the file name (and ":line" for ASCII syntax errors), says what is
// wrong and what to do, for: a missing or unreadable file; a binary file cut short or with bytes beyond its
// triangles; ASCII syntax errors; no triangles; NaN/infinite coordinates; more than 10% (or all) of the triangles
// with zero area (fewer are dropped and counted in dropped_degenerate); a surface that is not closed or not
// consistently oriented (every edge must be shared by exactly two triangles that run along it in opposite
// directions; vertices are matched by exact coordinates).
StlMesh read_stl(const std::filesystem::path& file);

// The edge check read_stl applies, exposed for tests and for meshes built in code: empty when every edge (between
// distinct vertices, matched exactly) is used once in each direction; otherwise a sentence that counts the open,
// over-shared and inconsistently oriented edges and names one of them by its coordinates.
std::string check_closed(const std::vector<Triangle>& triangles);

// True when the triangle has (numerically) zero area: |(b−a)×(c−a)| ≤ 1e-12 · (longest edge)².
bool is_degenerate(const Triangle& t);

}  // namespace aerolbm
