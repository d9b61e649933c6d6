// dapetra/tpetra/tpetra.hpp: the whole Tpetra adapter in one include.
#pragma once

#include "dapetra/tpetra/halo.hpp"
#include "dapetra/tpetra/layout.hpp"
#include "dapetra/tpetra/producer.hpp"
#include "dapetra/tpetra/redistribute.hpp"
#include "dapetra/tpetra/types.hpp"
#include "dapetra/tpetra/views.hpp"
