#pragma once
// NACA 4- and 5-digit sections from the analytic definition, in chord units (leading edge at (0,0), trailing edge at
// (1,0)). Uses the closed-trailing-edge thickness coefficient (−0.1036) so the outline is a watertight polygon
// without a blunt base that a lattice could not resolve anyway.
#include <string>
#include <vector>

#include "src/geometry/polygon2d.hpp"

namespace aerolbm {

struct Naca4Params {
  double m = 0;  // maximum camber, fraction of chord (first digit / 100)
  double p = 0;  // chordwise position of maximum camber (second digit / 10)
  double t = 0;  // maximum thickness, fraction of chord (last two digits / 100)
};

// Parses "MPTT". Throws GeometryError (naming geometry.code) unless it is exactly four digits describing a real
// section: non-zero thickness, and a camber position whenever there is camber.
Naca4Params parse_naca4(const std::string& code);

// Half thickness y_t at chord station x ∈ [0, 1] for thickness ratio t; exactly 0 at x = 0 and x = 1.
// Throws std::domain_error for x outside [0, 1].
double naca4_half_thickness(double t, double x);

// Mean camber line y_c(x) and its slope dy_c/dx for camber m at position p; both 0 for a symmetric section
// (m = 0 or p = 0).
double naca4_camber(double m, double p, double x);
double naca4_camber_slope(double m, double p, double x);

// Closed outline with n_per_side cosine-spaced intervals per surface, thickness laid off perpendicular to the
// camber line. Selig order: upper surface from the trailing edge to the leading edge, then the lower surface
// from the first point after the leading edge to the last before the trailing edge (2·n_per_side points, none
// repeated; counter-clockwise). Throws GeometryError for a bad code, std::invalid_argument for n_per_side < 4.
std::vector<Point2> naca4_outline(const std::string& code, int n_per_side);

// NACA 5-digit "LPSTT" with the standard (non-reflexed, S = 0) mean lines 210-250: design lift coefficient
// 0.15·L, maximum camber at P/20 of the chord, thickness TT % with the 4-digit thickness form.
struct Naca5Params {
  double r = 0;   // where the cubic front part of the mean line meets the straight rear part (chord fraction)
  double k1 = 0;  // the mean line's scale, for design lift coefficient 0.15·L
  double t = 0;   // maximum thickness, fraction of chord
  double design_cl = 0;  // 0.15·L
};

// Parses "LPSTT". Throws GeometryError (naming geometry.code) unless it is exactly five digits with L in 1-9, P in
// 1-5, S = 0 (reflexed mean lines are not supported) and thickness 01-40.
Naca5Params parse_naca5(const std::string& code);

// Mean camber line y_c(x) and slope of a 5-digit section: a cubic ahead of r, a straight line to the trailing
// edge behind it (both exactly 0 at x = 0 and x = 1).
double naca5_camber(const Naca5Params& f, double x);
double naca5_camber_slope(const Naca5Params& f, double x);

// Either family by the length of the code: 4 digits → naca4_outline, 5 digits → the 5-digit section built the
// same way (same order, spacing and closed trailing edge). Throws GeometryError for anything else.
std::vector<Point2> naca_outline(const std::string& code, int n_per_side);

// Maximum thickness (fraction of chord) of a 4- or 5-digit code: its last two digits / 100.
double naca_thickness(const std::string& code);

}  // namespace aerolbm
