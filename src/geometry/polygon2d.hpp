#pragma once
// Plain 2D polygon arithmetic shared by the airfoil readers (validation) and PolygonBody (placement).
#include <array>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace aerolbm {

using Point2 = std::array<double, 2>;

// Shoelace area; positive when the vertices run counter-clockwise (Selig order for an airfoil).
double signed_area(const std::vector<Point2>& poly);

// True when the closed segments a–b and c–d share at least one point (touching and collinear overlap count).
bool segments_touch(const Point2& a, const Point2& b, const Point2& c, const Point2& d);

// Edge i runs from poly[i] to poly[(i+1) % n]. Returns the first pair {i, j} (i < j) of non-adjacent edges that
// touch, or nullopt for a simple polygon. O(n²) with a box test: fine for the few hundred to few thousand
// vertices of an airfoil file, and it runs once per case.
std::optional<std::pair<std::size_t, std::size_t>> find_self_intersection(const std::vector<Point2>& poly);

}  // namespace aerolbm
