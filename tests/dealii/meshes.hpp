// The meshes the deal.II adapter's tests share.
#pragma once

#include <deal.II/distributed/tria.h>
#include <deal.II/grid/grid_generator.h>

namespace dapetra::testing {

// Collective. The unit square refined `everywhere` times, then the cells
// within `radius` of the origin once more: hanging nodes, as deal.II's
// adaptive tutorials have them.
inline void refine_near_corner(::dealii::parallel::distributed::Triangulation<2>& mesh, unsigned everywhere,
                               double radius) {
  ::dealii::GridGenerator::hyper_cube(mesh);
  mesh.refine_global(everywhere);
  for (const auto& cell : mesh.active_cell_iterators())
    if (cell->is_locally_owned() && cell->center().norm() < radius) cell->set_refine_flag();
  mesh.execute_coarsening_and_refinement();
}

}  // namespace dapetra::testing
