#!/usr/bin/env bash
# Bad input stops before anything runs: exit status 2, a message naming the file/line/key, and no run folder.
set -u
source "$(dirname "${BASH_SOURCE[0]}")/common.sh" "$@"

good=$SRC/cases/naca0012_re1000_aoa5.yaml
sed 's/reynolds: 1000/reynols: 1000/' "$good" > "$WORK/typo.yaml"
sed 's/mach: 0.15/mach: fast/' "$good" > "$WORK/type.yaml"
sed 's/chord_cells: 64/chord_cells: 8/' "$good" > "$WORK/unstable.yaml"
printf 'schema_version: 1\nphysics: {reynolds: 100\n' > "$WORK/syntax.yaml"

expect_bad unknown_key       "did you mean 'reynolds'"     run "$WORK/typo.yaml" -o "$WORK/out"
expect_bad wrong_type        "physics.mach"                run "$WORK/type.yaml" -o "$WORK/out"
expect_bad unstable_tau      "tau"                         run "$WORK/unstable.yaml" -o "$WORK/out"
expect_bad yaml_syntax       "syntax.yaml"                 run "$WORK/syntax.yaml" -o "$WORK/out"
expect_bad missing_file      "no_such_case.yaml"           run "$WORK/no_such_case.yaml" -o "$WORK/out"
expect_bad high_mach         "allow_high_mach"             run "$good" --set physics.mach=0.4 -o "$WORK/out"
expect_bad initial_noise     "physics.initial_noise"       run "$good" --set physics.initial_noise=2 -o "$WORK/out"
expect_bad initial_velocity  "physics.initial_velocity"    run "$good" --set 'physics.initial_velocity=[1,0]' -o "$WORK/out"
expect_bad bad_override      "physics.reynold"             run "$good" --set physics.reynold=5 -o "$WORK/out"
expect_bad out_of_range      "angle_of_attack_deg"         run "$good" --set flow.angle_of_attack_deg=120 -o "$WORK/out"
expect_bad body_outside      "body_position_chords"        run "$good" --set domain.body_position_chords=[0.1,2.5] -o "$WORK/out"
expect_bad bad_backend       "backend"                     run "$good" --backend gpu -o "$WORK/out"
expect_bad refined_body      "crosses a body"              run "$good" --set 'refinement.boxes=[[0,-0.1,1,0.1]]' -o "$WORK/out"
expect_bad refined_nesting   "inside the one before"       run "$good" --set 'refinement.boxes=[[-1,-0.5,2,0.5],[-2,-0.2,1,0.2]]' -o "$WORK/out"
expect_bad refined_check     "crosses a body"              check "$good" --set 'refinement.boxes=[[0,-0.1,1,0.1]]'
wing=$SRC/cases/ci/wing_naca0012_ar4.yaml
expect_bad wing_on_d2q9      "D3Q19"                       run "$wing" --set lattice.stencil=D2Q9 --set 'domain.size_chords=[6,3]' --set 'domain.body_position_chords=[2,1.5]' -o "$WORK/out"
expect_bad wing_bad_section  "reflexed"                    run "$wing" --set 'geometry.section="23112"' -o "$WORK/out"
expect_bad wing_neg_span     "geometry.span"               run "$wing" --set geometry.span=-2 -o "$WORK/out"
expect_bad wing_too_long     "body_position_chords"        run "$wing" --set geometry.span=10 -o "$WORK/out"
expect_bad stl_missing       "geometry.file"               run "$SRC/cases/ci/stl_example.yaml" --set geometry.file=nope.stl -o "$WORK/out"
touch "$WORK/file"
expect_bad unwritable_output "not a directory"             run "$good" -o "$WORK/file"
chmod 0555 "$WORK" 2>/dev/null
if [ "$(id -u)" != 0 ]; then
  expect_bad readonly_output "not writable"                run "$good" -o "$WORK/out"
fi
chmod 0755 "$WORK"
expect_bad check_bad         "did you mean"                check "$WORK/typo.yaml"
"$BIN" check "$good" >/dev/null 2>&1 || { echo "FAIL check on the default case"; failed=1; }
for c in wing_naca0012_ar4 wing_naca2412_swept stl_example; do
  "$BIN" check "$SRC/cases/ci/$c.yaml" >/dev/null 2>&1 || { echo "FAIL check on cases/ci/$c.yaml"; failed=1; }
done
exit $failed
