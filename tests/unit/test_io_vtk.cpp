// vtk/*.vti and fields.pvd read back through vtkXMLImageDataReader and plain text checks.
#include <vtkDataArray.h>
#include <vtkFieldData.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkSmartPointer.h>
#include <vtkStringArray.h>
#include <vtkXMLImageDataReader.h>

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

vtkSmartPointer<vtkImageData> read_vti(const std::filesystem::path& p) {
  vtkNew<vtkXMLImageDataReader> reader;
  reader->SetFileName(p.c_str());
  reader->Update();
  vtkSmartPointer<vtkImageData> out = reader->GetOutput();
  return out;
}

void expect_vti_frame(vtkImageData* img, const GridInfo& g, int id, int vort_components) {
  ASSERT_NE(img, nullptr);
  int ext[6];
  img->GetExtent(ext);
  EXPECT_EQ(ext[0], 0);
  EXPECT_EQ(ext[1], g.nx - 1);
  EXPECT_EQ(ext[2], 0);
  EXPECT_EQ(ext[3], g.ny - 1);
  EXPECT_EQ(ext[4], 0);
  EXPECT_EQ(ext[5], g.nz - 1);
  double origin[3], spacing[3];
  img->GetOrigin(origin);
  img->GetSpacing(spacing);
  for (int a = 0; a < 3; ++a) {
    EXPECT_EQ(origin[a], g.origin[a]) << a;
    EXPECT_EQ(spacing[a], g.spacing[a]) << a;
  }
  vtkPointData* pd = img->GetPointData();
  ASSERT_EQ(pd->GetNumberOfArrays(), 5);
  vtkDataArray* vel = pd->GetArray("velocity");
  vtkDataArray* p = pd->GetArray("pressure");
  vtkDataArray* rho = pd->GetArray("density");
  vtkDataArray* w = pd->GetArray("vorticity");
  vtkDataArray* m = pd->GetArray("mask");
  ASSERT_TRUE(vel && p && rho && w && m);
  EXPECT_EQ(vel->GetNumberOfComponents(), 3);
  EXPECT_EQ(p->GetNumberOfComponents(), 1);
  EXPECT_EQ(w->GetNumberOfComponents(), vort_components);
  EXPECT_EQ(vel->GetDataType(), VTK_FLOAT);
  EXPECT_EQ(m->GetDataType(), VTK_UNSIGNED_CHAR);
  ASSERT_EQ(vel->GetNumberOfTuples(), g.cells());
  vtkIdType pt = 0;
  for (std::int64_t k = 0; k < g.nz; ++k)
    for (std::int64_t j = 0; j < g.ny; ++j)
      for (std::int64_t i = 0; i < g.nx; ++i, ++pt) {
        // ComputePointId maps (i, j, k) the way ParaView does, so this also checks the axis order.
        int ijk[3] = {static_cast<int>(i), static_cast<int>(j), static_cast<int>(k)};
        ASSERT_EQ(img->ComputePointId(ijk), pt);
        for (int c = 0; c < 3; ++c)
          ASSERT_EQ(static_cast<float>(vel->GetComponent(pt, c)), known_value(0, id, i, j, k, c));
        ASSERT_EQ(static_cast<float>(p->GetComponent(pt, 0)), known_value(1, id, i, j, k, 0));
        ASSERT_EQ(static_cast<float>(rho->GetComponent(pt, 0)), known_value(2, id, i, j, k, 0));
        for (int c = 0; c < vort_components; ++c)
          ASSERT_EQ(static_cast<float>(w->GetComponent(pt, c)), known_value(3, id, i, j, k, c));
        ASSERT_EQ(m->GetComponent(pt, 0), known_mask(id, i, j, k));
      }
  vtkFieldData* fd = img->GetFieldData();
  ASSERT_NE(fd->GetArray("step"), nullptr);
  ASSERT_NE(fd->GetArray("TimeValue"), nullptr);
  EXPECT_EQ(fd->GetArray("step")->GetComponent(0, 0), 1000.0 * (id + 1));
  EXPECT_EQ(fd->GetArray("TimeValue")->GetComponent(0, 0), 0.75 * (id + 1));
}

TEST(IoVtk, TwoFrames2DReadBack) {
  TempDir tmp;
  const GridInfo g = small_grid();
  Attributes attrs;
  attrs.numbers = {{"reynolds", 1000.0}};
  attrs.strings = {{"stencil", "D2Q9"}};
  {
    auto w = make_vtk_writer(tmp.path(), g, attrs);
    w->write(known_frame(g, 0));
    w->write(known_frame(g, 1));
  }
  for (int id = 0; id < 2; ++id) {
    const auto path = tmp.path() / "vtk" / (id == 0 ? "fields_000000.vti" : "fields_000001.vti");
    ASSERT_TRUE(std::filesystem::exists(path)) << path;
    SCOPED_TRACE(path.string());
    auto img = read_vti(path);
    expect_vti_frame(img, g, id, 1);
    ASSERT_NE(img->GetFieldData()->GetArray("reynolds"), nullptr);
    EXPECT_EQ(img->GetFieldData()->GetArray("reynolds")->GetComponent(0, 0), 1000.0);
    auto* s = vtkStringArray::SafeDownCast(img->GetFieldData()->GetAbstractArray("stencil"));
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->GetValue(0), "D2Q9");
  }
  // Exactly the two .vti files, no leftover temp files.
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(tmp.path() / "vtk")) {
    EXPECT_EQ(e.path().extension(), ".vti") << e.path();
    ++files;
  }
  EXPECT_EQ(files, 2);
}

TEST(IoVtk, PvdListsExactlyTheWrittenFrames) {
  TempDir tmp;
  const GridInfo g = small_grid();
  auto w = make_vtk_writer(tmp.path(), g, {});
  EXPECT_EQ(test::count_of(read_text(tmp.path() / "fields.pvd"), "<DataSet "), 0);
  w->write(known_frame(g, 0));
  EXPECT_EQ(test::count_of(read_text(tmp.path() / "fields.pvd"), "<DataSet "), 1);
  w->write(known_frame(g, 1));
  const std::string pvd = read_text(tmp.path() / "fields.pvd");
  EXPECT_NE(pvd.find("<VTKFile type=\"Collection\""), std::string::npos);
  EXPECT_EQ(test::count_of(pvd, "<DataSet "), 2);
  EXPECT_NE(pvd.find("timestep=\"0.75\" group=\"\" part=\"0\" file=\"vtk/fields_000000.vti\""), std::string::npos);
  EXPECT_NE(pvd.find("timestep=\"1.5\" group=\"\" part=\"0\" file=\"vtk/fields_000001.vti\""), std::string::npos);
  for (std::size_t pos = pvd.find("file=\""); pos != std::string::npos; pos = pvd.find("file=\"", pos + 1)) {
    const std::string file = pvd.substr(pos + 6, pvd.find('"', pos + 6) - pos - 6);
    EXPECT_TRUE(std::filesystem::is_regular_file(tmp.path() / file)) << file;
  }
  EXPECT_FALSE(std::filesystem::exists(tmp.path() / "fields.pvd.tmp"));
}

// A continued run's writer takes over the frames its checkpoint counts, and refuses to go on when one is gone.
TEST(IoVtk, ContinuedWriterKeepsCheckpointedFramesAndRefusesAMissingOne) {
  TempDir tmp;
  const GridInfo g = small_grid();
  {
    auto w = make_vtk_writer(tmp.path(), g, {});
    w->write(known_frame(g, 0));
    w->write(known_frame(g, 1));
    w->write(known_frame(g, 2));
  }
  {
    // The checkpoint counted two frames: the third goes, the first two stay listed, the next is number 2.
    auto w = make_vtk_writer(tmp.path(), g, {}, {0.75, 1.5});
    EXPECT_FALSE(std::filesystem::exists(tmp.path() / "vtk" / "fields_000002.vti"));
    EXPECT_EQ(test::count_of(read_text(tmp.path() / "fields.pvd"), "<DataSet "), 2);
    w->write(known_frame(g, 2));
    EXPECT_TRUE(std::filesystem::exists(tmp.path() / "vtk" / "fields_000002.vti"));
    EXPECT_EQ(test::count_of(read_text(tmp.path() / "fields.pvd"), "<DataSet "), 3);
  }
  std::filesystem::remove(tmp.path() / "vtk" / "fields_000001.vti");
  try {
    make_vtk_writer(tmp.path(), g, {}, {0.75, 1.5});
    FAIL() << "a missing checkpointed frame was not noticed";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("frame file '" + (tmp.path() / "vtk" / "fields_000001.vti").string() +
                                         "' is missing"),
              std::string::npos)
        << e.what();
  }
}

TEST(IoVtk, ThreeDimensionalFrameWithVectorVorticity) {
  TempDir tmp;
  const GridInfo g = small_grid(3);
  make_vtk_writer(tmp.path(), g, {})->write(known_frame(g, 2, 3));
  expect_vti_frame(read_vti(tmp.path() / "vtk" / "fields_000000.vti"), g, 2, 3);
}

TEST(IoVtk, UncreatableFolderThrowsWithPath) {
  TempDir tmp;
  test::write_file(tmp.path() / "plain_file", "x");
  const auto run = tmp.path() / "plain_file" / "run";
  try {
    make_vtk_writer(run, small_grid(), {});
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(run.string()), std::string::npos) << e.what();
  }
}

// A failed Write() must throw, leave no .vti under the final name and not list the frame in the .pvd.
TEST(IoVtk, FailedWriteThrowsAndListsNothing) {
  TempDir tmp;
  const GridInfo g = small_grid();
  auto w = make_vtk_writer(tmp.path(), g, {});
  std::filesystem::create_directory(tmp.path() / "vtk" / "fields_000000.vti.tmp");  // cannot be opened as a file
  try {
    w->write(known_frame(g, 0));
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("fields_000000.vti"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(tmp.path() / "vtk" / "fields_000000.vti"));
  EXPECT_EQ(test::count_of(read_text(tmp.path() / "fields.pvd"), "<DataSet "), 0);
}

TEST(IoVtk, DiskFullThrows) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  TempDir tmp;
  const GridInfo g = small_grid();
  auto w = make_vtk_writer(tmp.path(), g, {});
  std::filesystem::create_symlink("/dev/full", tmp.path() / "vtk" / "fields_000000.vti.tmp");
  try {
    w->write(known_frame(g, 0));
    FAIL() << "expected std::runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("No space left"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(tmp.path() / "vtk" / "fields_000000.vti"));
  EXPECT_EQ(test::count_of(read_text(tmp.path() / "fields.pvd"), "<DataSet "), 0);
}

}  // namespace
}  // namespace aerolbm
