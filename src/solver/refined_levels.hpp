#pragma once
// Static grid refinement, ratio 2: a stack of nested levels, each a box of the level below at twice its resolution,
// each an ordinary backend (CPU or CUDA) over a grid of its own, coupled at the interfaces by the volumetric rules
// of kernels/physics/refinement.hpp (docs/grid_refinement.md). Level ℓ + 1 advances two steps per step of level ℓ
// (acoustic scaling), with τ − ½ doubled and the body force halved.
//
// Level ℓ + 1's grid is its box at double resolution plus a ghost band of two cells on every side that lies inside
// level ℓ (a side on a face of the domain keeps that face's boundary; an axis the box spans wholly keeps its
// periodicity); the cells of level ℓ under the box are flagged cell::ghost there (never updated: the ring next to
// the uncovered cells receives what the finer level sends out). The hand-over into the ghost band and the ring is
// computed on the levels' lattices in place (kernels/level_coupling.hpp: OpenMP loops on the host, device kernels
// on the levels' one stream for CUDA, so a coarse step with its sub-steps goes out without a host round trip), by
// the same per-value functions, and two backends that step a level alike (CPU and CUDA are bit-identical) give the
// same refined run.
//
// This first form: the pull kernel, fp32 or fp64 storage, one box per level, bands that meet no face of the
// domain across them. A level's cells come from a grid of its own where one is given (the domain built at that
// level's resolution, a body voxelised there: the body may lie in a box, not in its band), else from its parents'
// flags (fluid and solid only).
//
// The stack is itself a Backend over level 0's grid (a case's refinement.boxes run through it: assemble_solver): a
// step is a step of level 0 with its finer levels' sub-steps; forces are summed over the levels; the fields are
// level 0's with the cells under a box filled from the finer level (the mean of their children), so frames,
// watchdog scans and force samples work as on one grid; the populations read and written (checkpoints) are every
// level's (nothing is in transit between the levels between coarse steps), so a restart continues bit for bit.
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "kernels/backend.hpp"

namespace aerolbm {

// A refined region: cells [lo, hi) along each axis of the level below, in that level's global coordinates (level
// 0's are its cells; level ℓ's are level ℓ − 1's times 2). The third axis of a 2D lattice is not refined.
struct RefinedBox {
  std::int64_t lo[3] = {0, 0, 0};
  std::int64_t hi[3] = {1, 1, 1};
};

class RefinedLevels : public Backend {
 public:
  // `coarse`: level 0 (a whole grid, not an MPI block), `p` its physics; boxes[ℓ]: level ℓ + 1's box;
  // level_grids[ℓ] (optional, may be shorter or hold nulls): the domain at level ℓ + 1's resolution, whole or the
  // part that holds the level's box and band (build_domain with a region), whose cells there are taken. Throws
  // std::invalid_argument for a box that is not inside its level with room for the bands, or that holds what this
  // form does not refine (a body, an inlet or outlet in a band or without a grid of its own, a kernel
  // other than pull; fp16s storage is the CUDA backend's, as without refinement).
  // `plan_only` (`aerolbm check`): the levels' grids and hand-over tables are built and checked as for a run, but
  // no backend is made (no lattice allocated); only levels(), domain(), params(), owned() and
  // cell_updates_per_step() may then be called.
  RefinedLevels(BackendKind which, const BackendConfig& cfg, const DomainData& coarse, const PhysicsParams& p,
                const std::vector<RefinedBox>& boxes, const std::vector<const DomainData*>& level_grids = {},
                bool plan_only = false);
  ~RefinedLevels() override;
  RefinedLevels(const RefinedLevels&) = delete;
  RefinedLevels& operator=(const RefinedLevels&) = delete;

  int levels() const;
  Backend& backend(int level);
  // The level's grid (origin and global_n in that level's global coordinates) and its physics.
  const DomainData& domain(int level) const;
  const PhysicsParams& params(int level) const;
  // Whether a cell of the level's grid is its own (not ghost band, not covered by the next level).
  bool owned(int level, std::int64_t cell) const;

  // After a level's state was written directly (Backend::write_populations through backend()): waits for the work
  // queued, so that the next coarse step starts from the written states.
  void states_written();
  // Cell updates per step of level 0: every level's own cells times its sub-steps (2^ℓ), for MLUPs.
  std::int64_t cell_updates_per_step() const;
  // Total mass Σ ρ V and momentum Σ ρ u V over the owned fluid cells of every level, V = 2^{−D ℓ} (a level-0 cell
  // holds volume 1; the lattice velocity is the same on every level). From the stored populations, in double.
  double mass();
  std::array<double, 3> momentum();

  // Backend, over level 0's grid (see above).
  BackendKind kind() const override;
  std::string device() const override;
  std::string kernel() const override;  // level 0's, with the number of levels
  void initialize() override;
  void set_step(std::int64_t step) override;  // level ℓ at step × 2^ℓ
  // Advances every level by `coarse_steps` steps of level 0 (level ℓ by 2^ℓ times as many).
  void run(std::int64_t coarse_steps) override;
  // The same, returning once every level's work is queued (CUDA: on level 0's stream); finish_steps waits for it.
  void queue_steps(std::int64_t coarse_steps) override;
  void finish_steps() override;
  double timed(const std::function<void()>& work) override;  // on level 0's backend (its device events)
  double timed_run(std::int64_t steps) override;
  // The force on the body (momentum exchange) summed over the levels, in level 0's lattice units: level ℓ's
  // force times 2^{−(D−1)ℓ} (its cells hold 2^{−Dℓ} of the mass, its steps are 2^{−ℓ} as long).
  std::array<double, 3> wall_force() override;
  std::array<double, 3> wall_pressure_force() override;
  // Samples of the same force (and, asked for, the body level's per-cell forces in its own units, as
  // wall_force_cells); where one level holds the body, sampled by that level's backend behind the queued steps.
  void queue_force_sample(bool per_cell) override;
  std::vector<ForceSample> take_force_samples() override;
  // The finest level that holds near-wall cells (the body's: a body lies wholly in one level, its band clear of
  // it), 0 when none does.
  int body_level() const;
  // That level's per-cell forces, in its own lattice units and its wall_cells order (its grid: domain(body_level()));
  // throws std::logic_error when more than one level holds near-wall cells.
  void wall_force_cells(std::vector<double>& f) override;
  void macroscopic(std::vector<float>& rho, std::vector<float>& u) override;
  // Not on refined levels (each level's fields live on its own grid): throws std::logic_error.
  DeviceFieldArrays device_fields() override;
  // Every level scanned; a bad cell is reported as the level-0 cell that holds it.
  StateCheck check_state(double max_speed) override;
  std::unique_ptr<FieldsTransfer> start_fields_transfer() override;
  // Level `level`'s own density and velocity (its grid), the cells under the next level's box filled with the mean
  // of their children: the level's frames. On the host, complete when it returns.
  std::unique_ptr<FieldsTransfer> level_fields_transfer(int level);
  // Level `level`'s density and velocity as its backend holds them (its grid; the cells under the next level's box
  // not filled: its ghost cells, owned() false).
  void level_own_fields(int level, std::vector<float>& rho, std::vector<float>& u);
  // Level 0's populations (Q × its cells), then level 1's, ... write_populations throws std::invalid_argument for
  // another length.
  // The mean fields (output.averages): every level samples its own grid at the same coarse step; read_averages
  // gives level 0's statistics, the cells under a box filled from the finer level's (level_averages).
  void sample_averages() override;
  void read_averages(FieldAverages& out) override;
  void read_populations(std::vector<double>& f) override;
  void write_populations(const std::vector<double>& f) override;

 private:
  struct Level;
  struct Coupling;
  void step(int level);
  std::array<double, 3> summed_force(bool pressure_part);
  // Fills level `level`'s density and velocity, the cells under level + 1's box with the mean of their children,
  // its band from level − 1 (fill_band).
  void level_fields(int level, std::vector<float>& rho, std::vector<float>& u);
  // Level `level`'s cells under level + 1's box given the mean of their children (level_fields of level + 1).
  void fill_covered(int level, std::vector<float>& rho, std::vector<float>& u);
  // rho, u (level `level`'s fields): each cell under level + 1's box set to the mean of its children in frho, fu.
  void mean_of_children(int level, const std::vector<float>& frho, const std::vector<float>& fu,
                        std::vector<float>& rho, std::vector<float>& u) const;
  // Level `level`'s band (level ≥ 1: the two cells of its grid over level − 1's own cells on each side that has
  // one), whose populations hold only the values the own cells read, given the fields of level − 1 interpolated
  // (bi/trilinearly) at its cells' centres: level − 1's own cells, and those under this level's box the mean of
  // their children in `rho`, `u` (this level's fields). The level's frames then show the flow there, and the
  // derived fields (vorticity, Q) of the own cells next to the band difference it, not partial sums.
  void fill_band(int level, std::vector<float>& rho, std::vector<float>& u);
  // Level `level`'s mean-field statistics, the cells under the next level's box filled with the mean of their
  // children's (their means, and their sums of squared deviations: the mean of the children's variances, not the
  // variance of their mean).
  void level_averages(int level, FieldAverages& out);
  // Each cell of level `level` under the next level's box, with its children's cells in that level's grid (2^D).
  template <class Fn>
  void for_each_covered(int level, Fn&& fn) const;
  void couple_and_step(int level);
  bool replay_two_steps();
  std::array<double, 4> budget();  // mass, then momentum (mass(), momentum())
  std::vector<int> sampled_at_;  // per queued force sample: the level whose backend took it, −1: taken here
  std::vector<Level> levels_;
  std::vector<Coupling> couplings_;  // couplings_[ℓ]: between level ℓ and ℓ + 1
  // Two coarse steps of every level with their hand-overs, recorded once per starting state (every level's current
  // lattice; CUDA graphs) and replayed (replay_two_steps).
  std::map<std::vector<const void*>, std::unique_ptr<Backend::Recording>> recordings_;
  Stencil stencil_ = Stencil::D2Q9;
  int dims_ = 2;
  int q_ = 9;
};

}  // namespace aerolbm
