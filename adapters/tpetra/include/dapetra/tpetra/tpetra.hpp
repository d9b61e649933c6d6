/// \file
/// dapetra/tpetra/tpetra.hpp: the whole Tpetra adapter in one include (with the
/// communication layer it is built on, dapetra/mpi).
#pragma once

#include "dapetra/mpi/mpi.hpp"
#include "dapetra/tpetra/tpetra_layout.hpp"
#include "dapetra/tpetra/crs_matrix.hpp"
#include "dapetra/tpetra/fe_matrix.hpp"
#include "dapetra/tpetra/muelu_parameters.hpp"
#include "dapetra/tpetra/producer.hpp"
#include "dapetra/tpetra/transfers.hpp"
#include "dapetra/tpetra/types.hpp"
#include "dapetra/tpetra/views.hpp"
