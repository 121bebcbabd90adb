#pragma once
// Reader for airfoil coordinates in the UIUC Selig format: a name line, then one "x y" pair per line, upper
// surface from the trailing edge to the leading edge, then the lower surface back to the trailing edge.
#include <filesystem>
#include <vector>

#include "src/geometry/polygon2d.hpp"

namespace aerolbm {

// Returns the outline in chord units (leading edge at x = 0, chord 1), Selig order, with exact consecutive
// duplicates and the repeated closing trailing-edge point removed. Bad files throw GeometryError whose message names
// file:line, what is wrong and what to do: unreadable file, non-numeric line, fewer than 10 points, x outside
// [-0.01, 1.01], Lednicer format, an outline that does not end near where it started, a chord not within 1% of 1,
// a self-intersecting or zero-area outline.
std::vector<Point2> read_selig(const std::filesystem::path& file);

}  // namespace aerolbm
