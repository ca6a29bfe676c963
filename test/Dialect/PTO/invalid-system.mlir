// RUN: tilekit-opt %s -split-input-file -verify-diagnostics

// Flags connect two specific pipes.
func.func @f() {
  // expected-error @+1 {{synchronizes two specific pipes; use pto.system.bar_all for every pipe}}
  pto.system.sync_src all -> v, event 0
  return
}

// -----

// A pipe needs no flag to itself.
func.func @f() {
  // expected-error @+1 {{synchronizes a pipe with itself; a pipe already runs in order}}
  pto.system.sync_dst v -> v, event 0
  return
}

// -----

// Eight events per pipe pair.
func.func @f() {
  // expected-error @+1 {{event id must be in [0, 7], got 8}}
  pto.system.sync_src mte2 -> v, event 8
  return
}

// -----

// Unknown pipe names are parse errors.
func.func @f() {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'set_pipe' [s, v, m, mte1, mte2, mte3, fix, all]}}
  pto.system.sync_src mte4 -> v, event 0
  return
}

// -----

// Sync ops run on a core.
func.func @f() attributes {pto.kind = #pto.kind<orchestration>} {
  // expected-error @+1 {{is a tile op and cannot run in a function of kind 'orchestration'}}
  pto.system.bar_all
  return
}

// -----

// Pipe slots are whole 32-byte blocks.
func.func @f() {
  // expected-error @+1 {{slot size must be a positive multiple of 32 bytes, got 100}}
  pto.system.aic_initialize_pipe 0 both slot_num 2 slot_size 100
  return
}

// -----

// A pipe has at least one slot.
func.func @f() {
  // expected-error @+1 {{needs at least one slot, got 0}}
  pto.system.aiv_initialize_pipe 0 to_aic slot_num 0 slot_size 1024
  return
}

// -----

// Each end is set up on its own core.
func.func @f() attributes {pto.kind = #pto.kind<aiv>} {
  // expected-error @+1 {{sets up the aic end of a pipe and cannot appear in a function of kind 'aiv'}}
  pto.system.aic_initialize_pipe 0 both slot_num 2 slot_size 1024
  return
}

// -----

// Pipe ids are non-negative.
func.func @f() {
  // expected-error @+1 {{pipe id must be non-negative}}
  pto.system.aiv_initialize_pipe -1 to_aic slot_num 2 slot_size 1024
  return
}
