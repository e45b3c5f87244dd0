/* What the CPU offers beyond the x86-64 baseline, asked once (cpu.c). */
#ifndef SHOTGUARD_CPU_H
#define SHOTGUARD_CPU_H

/* 1 when the CPU has SSSE3 (pshufb), which the pixel conversions use; 0 elsewhere. */
int sg_has_ssse3(void);

#endif
