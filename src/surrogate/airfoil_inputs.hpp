#pragma once
// The surrogate's inputs from a case's geometry, in the sample frame of postprocess/surrogate/SCHEMA.md (chord
// units, quarter chord at the origin, free stream along +x, the section turned nose-up by the angle of attack
// exactly as the solver places it): the outline, the signed distance and inside mask on the sample grid, and
// the parameter vector. `aerolbm sweep` and `aerolbm predict` both build them here, so training and inference
// see identical inputs.
#include <array>
#include <vector>

#include "src/case/case.hpp"
#include "src/geometry/polygon2d.hpp"
#include "src/surrogate/model.hpp"

namespace aerolbm::surrogate {

// Points per surface of the outline used for the signed distance and the mask.
inline constexpr int kOutlinePointsPerSide = 200;
// Surface points of Cl/Cd from a predicted field: sweep.yaml's default surface_points (200, i.e. 100 per side),
// so that predict integrates over the same polygon as evaluate.py does over the dataset's /surface.
inline constexpr int kSurfacePointsPerSide = 100;

// The case's NACA 4-digit section in the sample frame, counter-clockwise, 2·points_per_side points (Selig
// order: upper surface from the trailing edge, then the lower one). Throws CaseError unless the case is naca4.
std::vector<Point2> case_outline(const Case& c, int points_per_side = kOutlinePointsPerSide);

// Even-odd inside test.
bool inside_polygon(const std::vector<Point2>& poly, const Point2& p);
// Exact Euclidean distance to the closed polygon's edges, negative inside.
double signed_distance(const std::vector<Point2>& poly, const Point2& p);

// Raw point features [T, 4] of the grid: x, y, signed distance (chords), mask (1 inside).
std::vector<float> point_features(const SampleGrid& g, const std::vector<Point2>& outline);

// camber m, camber position p (0 for a symmetric section), thickness t, angle of attack (deg), Reynolds number.
std::array<double, kParamFeatures> case_params(const Case& c);

}  // namespace aerolbm::surrogate
