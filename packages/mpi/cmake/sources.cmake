# The mpi layer's sources, for the plain build (CMakeLists.txt) and for TriBITS
# (cmake/tribits.cmake): written once.
set(DAPETRA_MPI_SOURCES
  src/agree.cpp
  src/checked.cpp
  src/closed_form.cpp
  src/collectives.cpp
  src/comm.cpp
  src/exchange.cpp
  src/halo_apply.cpp
  src/halo_plan.cpp
  src/index_map.cpp
  src/distributed_layout.cpp
  src/grid_lines.cpp
  src/ownership.cpp
  src/rendezvous.cpp
  src/scattered_owners.cpp
  src/redistribute.cpp)
