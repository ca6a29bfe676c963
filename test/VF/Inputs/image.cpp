// Images that break the rules of a runnable vf image, one per macro.
extern "C" {
#ifdef RODATA
// A constant table: .rodata.
static const float table[8] = {1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f, 7.5f, 8.5f};
float lookup(int i) { return table[i & 7]; }
#endif
#ifdef DATA
// A global: .data or .bss.
int counter = 7;
void count() { ++counter; }
#endif
#ifdef CALL_OUT
void external_function(float *);
#endif

void helper(float *p) {
#ifdef CALL_OUT
  external_function(p);
#else
  p[0] += p[1];
#endif
}

#ifndef NO_ENTRY
void kernel_entry(float *p) { helper(p); }
#else
void another_entry(float *p) { helper(p); }
#endif
}
