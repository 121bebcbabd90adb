// fields.h5 / fields.xdmf read back through the HDF5 C API, independently of the writer's code.
#include <hdf5.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <vector>

#include "src/io/field_writer.hpp"
#include "tests/unit/test_io_support.hpp"

namespace aerolbm {
namespace {

using test::known_frame;
using test::known_mask;
using test::known_value;
using test::read_text;
using test::small_grid;
using test::TempDir;

struct H5File {
  hid_t id;
  explicit H5File(const std::filesystem::path& p) : id(H5Fopen(p.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT)) {}
  ~H5File() {
    if (id >= 0) H5Fclose(id);
  }
};

std::vector<std::string> child_names(hid_t loc) {
  std::vector<std::string> names;
  hsize_t idx = 0;
  H5Literate(
      loc, H5_INDEX_NAME, H5_ITER_INC, &idx,
      [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
        static_cast<std::vector<std::string>*>(out)->push_back(name);
        return 0;
      },
      &names);
  return names;
}

std::vector<hsize_t> dataset_dims(hid_t file, const std::string& path) {
  const hid_t d = H5Dopen2(file, path.c_str(), H5P_DEFAULT);
  if (d < 0) return {};
  const hid_t s = H5Dget_space(d);
  std::vector<hsize_t> dims(static_cast<std::size_t>(H5Sget_simple_extent_ndims(s)));
  H5Sget_simple_extent_dims(s, dims.data(), nullptr);
  H5Sclose(s);
  H5Dclose(d);
  return dims;
}

template <class T>
std::vector<T> read_dataset(hid_t file, const std::string& path, hid_t mem_type, std::size_t count) {
  std::vector<T> v(count);
  const hid_t d = H5Dopen2(file, path.c_str(), H5P_DEFAULT);
  EXPECT_GE(d, 0) << path;
  if (d < 0) return {};
  EXPECT_GE(H5Dread(d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()), 0) << path;
  H5Dclose(d);
  return v;
}

template <class T>
std::vector<T> read_attr(hid_t obj, const char* name, hid_t mem_type) {
  const hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
  EXPECT_GE(a, 0) << name;
  if (a < 0) return {};
  const hid_t s = H5Aget_space(a);
  std::vector<T> v(static_cast<std::size_t>(H5Sget_simple_extent_npoints(s)));
  H5Aread(a, mem_type, v.data());
  H5Sclose(s);
  H5Aclose(a);
  return v;
}

std::string read_string_attr(hid_t obj, const char* name) {
  const hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
  if (a < 0) return "<missing>";
  const hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, H5T_VARIABLE);
  H5Tset_cset(t, H5T_CSET_UTF8);
  char* text = nullptr;
  std::string out = H5Aread(a, t, &text) >= 0 && text ? text : "<unreadable>";
  H5free_memory(text);
  H5Tclose(t);
  H5Aclose(a);
  return out;
}

std::string dataset_units(hid_t file, const std::string& path) {
  const hid_t d = H5Dopen2(file, path.c_str(), H5P_DEFAULT);
  if (d < 0) return "<no dataset>";
  std::string u = read_string_attr(d, "units");
  H5Dclose(d);
  return u;
}

// Checks every field of known_frame(id) at `group` against the formula, in (k, j, i, c) order.
void expect_frame(hid_t file, const std::string& group, const GridInfo& g, int id, int vort_components) {
  const auto n = static_cast<std::size_t>(g.cells());
  const auto vel = read_dataset<float>(file, group + "/velocity", H5T_NATIVE_FLOAT, 3 * n);
  const auto p = read_dataset<float>(file, group + "/pressure", H5T_NATIVE_FLOAT, n);
  const auto rho = read_dataset<float>(file, group + "/density", H5T_NATIVE_FLOAT, n);
  const auto w = read_dataset<float>(file, group + "/vorticity", H5T_NATIVE_FLOAT, vort_components * n);
  const auto m = read_dataset<std::uint8_t>(file, group + "/mask", H5T_NATIVE_UINT8, n);
  ASSERT_EQ(vel.size(), 3 * n);
  std::size_t pt = 0;
  for (std::int64_t k = 0; k < g.nz; ++k)
    for (std::int64_t j = 0; j < g.ny; ++j)
      for (std::int64_t i = 0; i < g.nx; ++i, ++pt) {
        for (int c = 0; c < 3; ++c) ASSERT_EQ(vel[3 * pt + c], known_value(0, id, i, j, k, c)) << i << j << k << c;
        ASSERT_EQ(p[pt], known_value(1, id, i, j, k, 0));
        ASSERT_EQ(rho[pt], known_value(2, id, i, j, k, 0));
        for (int c = 0; c < vort_components; ++c)
          ASSERT_EQ(w[vort_components * pt + c], known_value(3, id, i, j, k, c));
        ASSERT_EQ(m[pt], known_mask(id, i, j, k));
      }
}

Attributes run_attributes() {
  Attributes a;
  a.numbers = {{"reynolds", 1000.0}, {"tau", 0.53125}};
  a.strings = {{"case", "naca0012 \"α = 5°\""}, {"stencil", "D2Q9"}};
  return a;
}

TEST(IoHdf5, TwoFrames2DReadBack) {
  TempDir tmp;
  const GridInfo g = small_grid();
  {
    auto w = make_hdf5_writer(tmp.path(), g, run_attributes());
    w->write(known_frame(g, 0));
    w->write(known_frame(g, 1));
  }
  H5File f(tmp.path() / "fields.h5");
  ASSERT_GE(f.id, 0);
  EXPECT_EQ(child_names(f.id), (std::vector<std::string>{"frame_000000", "frame_000001"}));

  EXPECT_EQ(read_attr<double>(f.id, "reynolds", H5T_NATIVE_DOUBLE), std::vector<double>{1000.0});
  EXPECT_EQ(read_attr<double>(f.id, "tau", H5T_NATIVE_DOUBLE), std::vector<double>{0.53125});
  EXPECT_EQ(read_string_attr(f.id, "case"), "naca0012 \"α = 5°\"");
  EXPECT_EQ(read_string_attr(f.id, "stencil"), "D2Q9");
  EXPECT_EQ(read_attr<std::int64_t>(f.id, "nx", H5T_NATIVE_INT64), std::vector<std::int64_t>{7});
  EXPECT_EQ(read_attr<std::int64_t>(f.id, "ny", H5T_NATIVE_INT64), std::vector<std::int64_t>{5});
  EXPECT_EQ(read_attr<std::int64_t>(f.id, "nz", H5T_NATIVE_INT64), std::vector<std::int64_t>{1});
  EXPECT_EQ(read_attr<double>(f.id, "origin", H5T_NATIVE_DOUBLE), (std::vector<double>{-2.5, -1.25, 0.0}));
  EXPECT_EQ(read_attr<double>(f.id, "spacing", H5T_NATIVE_DOUBLE), (std::vector<double>{0.125, 0.25, 0.5}));

  for (int id = 0; id < 2; ++id) {
    const std::string grp = id == 0 ? "/frame_000000" : "/frame_000001";
    const hid_t gid = H5Gopen2(f.id, grp.c_str(), H5P_DEFAULT);
    ASSERT_GE(gid, 0);
    EXPECT_EQ(read_attr<std::int64_t>(gid, "step", H5T_NATIVE_INT64), std::vector<std::int64_t>{1000 * (id + 1)});
    EXPECT_EQ(read_attr<double>(gid, "time", H5T_NATIVE_DOUBLE), std::vector<double>{0.75 * (id + 1)});
    H5Gclose(gid);
    EXPECT_EQ(dataset_dims(f.id, grp + "/velocity"), (std::vector<hsize_t>{1, 5, 7, 3}));
    EXPECT_EQ(dataset_dims(f.id, grp + "/pressure"), (std::vector<hsize_t>{1, 5, 7}));
    EXPECT_EQ(dataset_dims(f.id, grp + "/density"), (std::vector<hsize_t>{1, 5, 7}));
    EXPECT_EQ(dataset_dims(f.id, grp + "/vorticity"), (std::vector<hsize_t>{1, 5, 7}));
    EXPECT_EQ(dataset_dims(f.id, grp + "/mask"), (std::vector<hsize_t>{1, 5, 7}));
    expect_frame(f.id, grp, g, id, 1);
  }
  EXPECT_EQ(dataset_units(f.id, "/frame_000001/velocity"), "U_inf");
  EXPECT_EQ(dataset_units(f.id, "/frame_000001/pressure"), "Cp = (p - p_inf)/(0.5 rho U^2)");
  EXPECT_EQ(dataset_units(f.id, "/frame_000001/density"), "rho/rho_inf");
  EXPECT_EQ(dataset_units(f.id, "/frame_000001/vorticity"), "omega L/U_inf");
  EXPECT_EQ(dataset_units(f.id, "/frame_000001/mask"), "1 = solid");

  // The mask is stored as unsigned 8-bit, the fields as 32-bit floats.
  const hid_t d = H5Dopen2(f.id, "/frame_000000/mask", H5P_DEFAULT);
  const hid_t t = H5Dget_type(d);
  EXPECT_EQ(H5Tget_class(t), H5T_INTEGER);
  EXPECT_EQ(H5Tget_size(t), 1u);
  EXPECT_EQ(H5Tget_sign(t), H5T_SGN_NONE);
  H5Tclose(t);
  H5Dclose(d);
}

// Every DataItem path in the .xdmf must name an existing dataset whose shape matches the declared Dimensions.
TEST(IoHdf5, XdmfListsExactlyTheWrittenFrames) {
  TempDir tmp;
  const GridInfo g = small_grid();
  {
    auto w = make_hdf5_writer(tmp.path(), g, run_attributes());
    w->write(known_frame(g, 0));
    EXPECT_EQ(test::count_of(read_text(tmp.path() / "fields.xdmf"), "GridType=\"Uniform\""), 1);
    w->write(known_frame(g, 1));
  }
  const std::string x = read_text(tmp.path() / "fields.xdmf");
  EXPECT_EQ(test::count_of(x, "GridType=\"Uniform\""), 2);
  EXPECT_EQ(test::count_of(x, "CollectionType=\"Temporal\""), 1);
  EXPECT_NE(x.find("<Grid Name=\"frame_000000\""), std::string::npos);
  EXPECT_NE(x.find("<Grid Name=\"frame_000001\""), std::string::npos);
  EXPECT_NE(x.find("<Time Value=\"0.75\"/>"), std::string::npos);
  EXPECT_NE(x.find("<Time Value=\"1.5\"/>"), std::string::npos);
  EXPECT_NE(x.find("TopologyType=\"3DCoRectMesh\" Dimensions=\"1 5 7\""), std::string::npos);
  EXPECT_NE(x.find(">0 -1.25 -2.5</DataItem>"), std::string::npos) << "origin must be z y x";
  EXPECT_NE(x.find(">0.5 0.25 0.125</DataItem>"), std::string::npos) << "spacing must be z y x";
  EXPECT_EQ(test::count_of(x, "Center=\"Node\""), 10);
  EXPECT_FALSE(std::filesystem::exists(tmp.path() / "fields.xdmf.tmp"));

  // Each DataItem names a frame file and a dataset inside it: fields/frame_000000.h5:/velocity.
  int items = 0;
  for (std::size_t pos = x.find(">fields/"); pos != std::string::npos; pos = x.find(">fields/", pos + 1)) {
    const std::size_t colon = x.find(':', pos);
    const std::size_t end = x.find('<', pos);
    const std::string file = x.substr(pos + 1, colon - pos - 1);
    const std::string ds = x.substr(colon + 1, end - colon - 1);
    const std::size_t dims_at = x.rfind("Dimensions=\"", pos);
    const std::string dims = x.substr(dims_at + 12, x.find('"', dims_at + 12) - dims_at - 12);
    H5File f(tmp.path() / file);
    ASSERT_GE(f.id, 0) << file;
    std::string actual;
    for (hsize_t d : dataset_dims(f.id, ds)) actual += (actual.empty() ? "" : " ") + std::to_string(d);
    EXPECT_EQ(actual, dims) << file << ds;
    ++items;
  }
  EXPECT_EQ(items, 10);
}

TEST(IoHdf5, ThreeDimensionalFrameWithVectorVorticity) {
  TempDir tmp;
  const GridInfo g = small_grid(3);
  make_hdf5_writer(tmp.path(), g, {})->write(known_frame(g, 4, 3));
  H5File f(tmp.path() / "fields.h5");
  EXPECT_EQ(dataset_dims(f.id, "/frame_000000/velocity"), (std::vector<hsize_t>{3, 5, 7, 3}));
  EXPECT_EQ(dataset_dims(f.id, "/frame_000000/vorticity"), (std::vector<hsize_t>{3, 5, 7, 3}));
  EXPECT_EQ(dataset_dims(f.id, "/frame_000000/pressure"), (std::vector<hsize_t>{3, 5, 7}));
  expect_frame(f.id, "/frame_000000", g, 4, 3);
  const std::string x = read_text(tmp.path() / "fields.xdmf");
  EXPECT_NE(x.find("Name=\"vorticity\" AttributeType=\"Vector\""), std::string::npos);
  EXPECT_NE(x.find("Dimensions=\"3 5 7 3\" NumberType=\"Float\" Precision=\"4\" Format=\"HDF\">"
                   "fields/frame_000000.h5:/vorticity"),
            std::string::npos);
}

TEST(IoHdf5, WritesOnlyPresentFieldsAndRejectsWrongSizes) {
  TempDir tmp;
  const GridInfo g = small_grid();
  auto w = make_hdf5_writer(tmp.path(), g, {});
  Frame bad = known_frame(g, 0);
  bad.pressure.pop_back();
  try {
    w->write(bad);
    FAIL() << "a short pressure array must be rejected";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("pressure"), std::string::npos) << e.what();
  }
  Frame only_p;
  only_p.pressure = known_frame(g, 2).pressure;
  w->write(only_p);  // the rejected frame must not have used up frame_000000
  w.reset();
  H5File f(tmp.path() / "fields.h5");
  EXPECT_EQ(child_names(f.id), std::vector<std::string>{"frame_000000"});
  const hid_t gid = H5Gopen2(f.id, "/frame_000000", H5P_DEFAULT);
  EXPECT_EQ(child_names(gid), std::vector<std::string>{"pressure"});
  H5Gclose(gid);
  EXPECT_EQ(read_dataset<float>(f.id, "/frame_000000/pressure", H5T_NATIVE_FLOAT, 35)[34],
            known_value(1, 2, 6, 4, 0, 0));
}

// A run killed right after a frame (no destructor, no close) must leave that frame readable and listed.
TEST(IoHdf5, KilledProcessKeepsFinishedFrames) {
  TempDir tmp;
  const GridInfo g = small_grid();
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    try {  // an exception must not let the child go on running the rest of the test suite
      auto w = make_hdf5_writer(tmp.path(), g, run_attributes());
      w->write(known_frame(g, 0));
      w->write(known_frame(g, 1));
      ::kill(::getpid(), SIGKILL);
    } catch (...) {
    }
    ::_exit(3);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "child did not reach the kill";
  H5File f(tmp.path() / "fields.h5");
  ASSERT_GE(f.id, 0) << "file unreadable after kill";
  EXPECT_EQ(child_names(f.id), (std::vector<std::string>{"frame_000000", "frame_000001"}));
  expect_frame(f.id, "/frame_000001", g, 1, 1);
  EXPECT_EQ(test::count_of(read_text(tmp.path() / "fields.xdmf"), "GridType=\"Uniform\""), 2);
}

// Disk full in the middle of a frame, then space freed: the failed frame must leave no trace and the retry must
// get the same frame number. RLIMIT_FSIZE makes writes past a size fail (EFBIG) without needing a small disk;
// it runs in a child so the limit and HDF5's failed state stay out of this process.
TEST(IoHdf5, FailedFrameCanBeRetried) {
  TempDir tmp;
  GridInfo g = small_grid();
  g.nx = 64;
  g.ny = 32;
  g.nz = 8;  // ~0.5 MB per frame, well past HDF5's 64 KiB sieve buffer, so data hits the disk during the write
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    int code = 0;
    try {
      ::signal(SIGXFSZ, SIG_IGN);
      auto w = make_hdf5_writer(tmp.path(), g, {});
      w->write(known_frame(g, 0));
      rlimit old{};
      ::getrlimit(RLIMIT_FSIZE, &old);
      rlimit tight = old;
      tight.rlim_cur = std::filesystem::file_size(tmp.path() / "fields.h5") + 65536;
      ::setrlimit(RLIMIT_FSIZE, &tight);
      code = 2;  // no exception from the write that cannot fit
      try {
        w->write(known_frame(g, 1));
      } catch (const std::runtime_error&) {
        code = 0;
      }
      ::setrlimit(RLIMIT_FSIZE, &old);
      if (code == 0) w->write(known_frame(g, 1));
    } catch (...) {
      code = 3;  // the retry failed
    }
    ::_exit(code);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0) << "2: oversized write did not throw, 3: retry threw";
  H5File f(tmp.path() / "fields.h5");
  ASSERT_GE(f.id, 0);
  EXPECT_EQ(child_names(f.id), (std::vector<std::string>{"frame_000000", "frame_000001"}));
  expect_frame(f.id, "/frame_000001", g, 1, 1);
  EXPECT_EQ(test::count_of(read_text(tmp.path() / "fields.xdmf"), "GridType=\"Uniform\""), 2);
}

TEST(IoHdf5, UncreatableFolderThrowsWithPath) {
  TempDir tmp;
  test::write_file(tmp.path() / "plain_file", "x");
  const auto run = tmp.path() / "plain_file" / "run";
  try {
    make_hdf5_writer(run, small_grid(), {});
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(run.string()), std::string::npos) << e.what();
  }
}

// An HDF5 call that fails must surface as an exception naming the file, not as a message on stderr.
TEST(IoHdf5, HdfFailureThrowsWithFileName) {
  TempDir tmp;
  Attributes clash;
  clash.numbers = {{"nx", 3.0}};  // collides with the grid attribute of the same name
  try {
    make_hdf5_writer(tmp.path(), small_grid(), clash);
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find((tmp.path() / "fields.h5").string()), std::string::npos) << msg;
    EXPECT_NE(msg.find("'nx'"), std::string::npos) << msg;
  }
}

// Disk full: the frame's temp file is a link to /dev/full, where every write fails with ENOSPC. It runs in a child
// process because HDF5 cannot release a file whose writes failed and complains about it at library shutdown.
TEST(IoHdf5, DiskFullThrowsWithFileAndCause) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  TempDir tmp;
  const GridInfo g = small_grid();
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    int code = 2;  // no exception
    try {
      auto w = make_hdf5_writer(tmp.path(), g, {});
      std::filesystem::create_symlink("/dev/full", tmp.path() / "fields" / "frame_000000.h5.tmp");
      w->write(known_frame(g, 0));
    } catch (const std::runtime_error& e) {
      const std::string msg = e.what();
      code = msg.find("frame_000000.h5") != std::string::npos && msg.find("No space left") != std::string::npos ? 0 : 3;
    } catch (...) {
      code = 4;
    }
    ::_exit(code);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "2: nothing thrown, 3: message lacks file name or cause, 4: wrong type";
}

}  // namespace
}  // namespace aerolbm
