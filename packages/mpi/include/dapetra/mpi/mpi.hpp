/// \file
/// dapetra/mpi/mpi.hpp: the whole communication layer in one include.
///
/// Layouts over an MPI communicator, halo exchange and assembly, and
/// redistribution between any two DAP distributions, and the sparse exchange
/// they are built on; MPI only, no Trilinos.
#pragma once

#include "dapetra/mpi/agree.hpp"
#include "dapetra/mpi/halo.hpp"
#include "dapetra/mpi/index_map.hpp"
#include "dapetra/mpi/distributed_layout.hpp"
#include "dapetra/mpi/plan_exchange.hpp"
#include "dapetra/mpi/redistribute.hpp"
#include "dapetra/mpi/scalar.hpp"
#include "dapetra/mpi/sparse_exchange.hpp"
