;; The field kernel: conversion of the recorder's staged rows of custom fields, 4 rows a step.
;;
;; Source of FIELD_KERNEL_WASM in src/core/kernel/entityKernelWasm.ts: after editing, run
;; `npm run build:kernel` (scripts/build-kernel.mjs). A module of its own, beside entityKernel.wat
;; and importing the same memory, so that each module stays under 4 KB (browsers refuse to compile
;; bigger modules synchronously on the main thread) and the entity kernel has room to grow.
(module
  (import "env" "memory" (memory 1))

  ;; field(type, src, stride, n, dst, lo, hi, marks) -> values repaired
  ;; Converts one field of the recorder's staged rows of custom fields: n float64 values at src, stride
  ;; bytes apart (one a row), into the field's column of a frame's field block at dst
  ;; (fieldLayout.ts), four rows a step, repairing each invalid value and setting the byte at
  ;; marks + row to 1 for its row. The JavaScript reference is writeRawBlock in
  ;; src/core/fields/fieldBlocks.ts, with repairI32 and repairU8 of fieldRepair.ts: the same bytes.
  ;; type (FIELD_* of fieldLayout.ts; a vec3 is three f32 calls):
  ;; - 0 f32: float32 words; not finite as a float32 (NaN, ±Infinity, past its range): the word 0.
  ;; - 1 i32, 2 u8: int32 words, bytes; not an integer in [lo, hi]: truncated and clamped to it
  ;;   (NaN, ±Infinity: 0).
  ;; - 5 entity, 4 enum: int32 words, bytes; not an integer in [lo, hi]: -1, 255.
  ;; - 3 bool: bits, 32 to a word from bit 0, whole words (the last one's unused bits 0); true when
  ;;   neither 0 nor NaN. Never repaired.
  (func (export "field") (param $t i32) (param $p i32) (param $s i32) (param $n i32) (param $o i32)
    (param $lo i32) (param $hi i32) (param $marks i32) (result i32)
    (local $a v128) (local $b v128) (local $x v128) (local $m v128) (local $fin v128) (local $cnt v128)
    (local $s2 i32) (local $s3 i32) (local $s4 i32) (local $q i32) (local $word i32) (local $v f64)
    (local $i i32) (local $bad i32) (local $k i32)
    (local.set $s2 (i32.shl (local.get $s) (i32.const 1)))
    (local.set $s3 (i32.add (local.get $s2) (local.get $s)))
    (local.set $s4 (i32.shl (local.get $s) (i32.const 2)))
    (block $done
      (loop $next
        (br_if $done (i32.gt_s (i32.add (local.get $q) (i32.const 4)) (local.get $n)))
        ;; rows q .. q + 3 as two f64x2
        (local.set $a (v128.load64_lane 1 (i32.add (local.get $p) (local.get $s)) (v128.load64_zero (local.get $p))))
        (local.set $b (v128.load64_lane 1 (i32.add (local.get $p) (local.get $s3))
          (v128.load64_zero (i32.add (local.get $p) (local.get $s2)))))
        (if (i32.eq (local.get $t) (i32.const 3))
          (then
            ;; neither 0 nor NaN, as four bits at bit q of the word
            (local.set $word (i32.or (local.get $word)
              (i32.shl
                (i32x4.bitmask (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27
                  (v128.and (f64x2.ne (local.get $a) (f64x2.splat (f64.const 0))) (f64x2.eq (local.get $a) (local.get $a)))
                  (v128.and (f64x2.ne (local.get $b) (f64x2.splat (f64.const 0))) (f64x2.eq (local.get $b) (local.get $b)))))
                (local.get $q))))
            (if (i32.eqz (i32.and (i32.add (local.get $q) (i32.const 4)) (i32.const 31)))
              (then
                (i32.store (local.get $o) (local.get $word))
                (local.set $word (i32.const 0))
                (local.set $o (i32.add (local.get $o) (i32.const 4))))))
          (else
            (if (i32.eqz (local.get $t))
              (then
                (local.set $x (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
                  (f32x4.demote_f64x2_zero (local.get $a)) (f32x4.demote_f64x2_zero (local.get $b))))
                ;; exponent all ones: NaN or ±Infinity
                (local.set $m (i32x4.eq (v128.and (local.get $x) (i32x4.splat (i32.const 0x7f800000)))
                  (i32x4.splat (i32.const 0x7f800000))))
                (v128.store (local.get $o) (v128.andnot (local.get $x) (local.get $m)))
                (local.set $o (i32.add (local.get $o) (i32.const 16))))
              (else
                ;; truncated, saturating (NaN: 0); invalid unless it converts back to the value and lies in [lo, hi]
                (local.set $x (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
                  (i32x4.trunc_sat_f64x2_s_zero (local.get $a)) (i32x4.trunc_sat_f64x2_s_zero (local.get $b))))
                (local.set $m
                  (v128.or
                    (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27
                      (f64x2.ne (f64x2.convert_low_i32x4_s (local.get $x)) (local.get $a))
                      (f64x2.ne (f64x2.convert_low_i32x4_s (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
                        (local.get $x) (local.get $x))) (local.get $b)))
                    (v128.or (i32x4.lt_s (local.get $x) (i32x4.splat (local.get $lo)))
                      (i32x4.gt_s (local.get $x) (i32x4.splat (local.get $hi))))))
                (if (i32.ge_u (local.get $t) (i32.const 4))
                  (then
                    ;; entity, enum: an invalid value is -1 (its low byte 255)
                    (local.set $x (v128.or (local.get $x) (local.get $m))))
                  (else
                    ;; i32, u8: clamped, and 0 unless finite
                    (local.set $fin (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27
                      (f64x2.eq (f64x2.sub (local.get $a) (local.get $a)) (f64x2.splat (f64.const 0)))
                      (f64x2.eq (f64x2.sub (local.get $b) (local.get $b)) (f64x2.splat (f64.const 0)))))
                    (local.set $x (v128.and (local.get $fin)
                      (i32x4.min_s (i32x4.max_s (local.get $x) (i32x4.splat (local.get $lo))) (i32x4.splat (local.get $hi)))))))
                (if (i32.eq (i32.and (local.get $t) (i32.const 1)) (i32.const 1))
                  (then
                    (v128.store (local.get $o) (local.get $x))
                    (local.set $o (i32.add (local.get $o) (i32.const 16))))
                  (else
                    (v128.store32_lane 0 (local.get $o) (i8x16.shuffle 0 4 8 12 0 0 0 0 0 0 0 0 0 0 0 0
                      (local.get $x) (local.get $x)))
                    (local.set $o (i32.add (local.get $o) (i32.const 4)))))))
            ;; invalid rows (rare): counted and marked
            (if (v128.any_true (local.get $m))
              (then
                (local.set $cnt (i32x4.sub (local.get $cnt) (local.get $m)))
                (local.set $k (i32.add (local.get $marks) (local.get $q)))
                (if (i32x4.extract_lane 0 (local.get $m)) (then (i32.store8 (local.get $k) (i32.const 1))))
                (if (i32x4.extract_lane 1 (local.get $m)) (then (i32.store8 offset=1 (local.get $k) (i32.const 1))))
                (if (i32x4.extract_lane 2 (local.get $m)) (then (i32.store8 offset=2 (local.get $k) (i32.const 1))))
                (if (i32x4.extract_lane 3 (local.get $m)) (then (i32.store8 offset=3 (local.get $k) (i32.const 1))))))))
        (local.set $p (i32.add (local.get $p) (local.get $s4)))
        (local.set $q (i32.add (local.get $q) (i32.const 4)))
        (br $next)))
    ;; the last 0..3 rows, one at a time, by the same rules
    (block $tail
      (loop $one
        (br_if $tail (i32.ge_s (local.get $q) (local.get $n)))
        (local.set $v (f64.load (local.get $p)))
        (local.set $k (i32.const 0))
        (if (i32.eq (local.get $t) (i32.const 3))
          (then
            (local.set $word (i32.or (local.get $word)
              (i32.shl (i32.and (f64.ne (local.get $v) (f64.const 0)) (f64.eq (local.get $v) (local.get $v)))
                (local.get $q)))))
          (else
            (if (i32.eqz (local.get $t))
              (then
                (local.set $i (i32.reinterpret_f32 (f32.demote_f64 (local.get $v))))
                (local.set $k (i32.eq (i32.and (local.get $i) (i32.const 0x7f800000)) (i32.const 0x7f800000)))
                (i32.store (local.get $o) (select (i32.const 0) (local.get $i) (local.get $k)))
                (local.set $o (i32.add (local.get $o) (i32.const 4))))
              (else
                (local.set $i (i32.trunc_sat_f64_s (local.get $v)))
                (local.set $k
                  (i32.or (f64.ne (f64.convert_i32_s (local.get $i)) (local.get $v))
                    (i32.or (i32.lt_s (local.get $i) (local.get $lo)) (i32.gt_s (local.get $i) (local.get $hi)))))
                (if (i32.ge_u (local.get $t) (i32.const 4))
                  (then (if (local.get $k) (then (local.set $i (i32.const -1)))))
                  (else
                    (if (i32.lt_s (local.get $i) (local.get $lo)) (then (local.set $i (local.get $lo))))
                    (if (i32.gt_s (local.get $i) (local.get $hi)) (then (local.set $i (local.get $hi))))
                    (if (f64.ne (f64.sub (local.get $v) (local.get $v)) (f64.const 0)) (then (local.set $i (i32.const 0))))))
                (if (i32.eq (i32.and (local.get $t) (i32.const 1)) (i32.const 1))
                  (then (i32.store (local.get $o) (local.get $i)) (local.set $o (i32.add (local.get $o) (i32.const 4))))
                  (else (i32.store8 (local.get $o) (local.get $i)) (local.set $o (i32.add (local.get $o) (i32.const 1)))))))
            (if (local.get $k)
              (then
                (local.set $bad (i32.add (local.get $bad) (i32.const 1)))
                (i32.store8 (i32.add (local.get $marks) (local.get $q)) (i32.const 1))))))
        (local.set $p (i32.add (local.get $p) (local.get $s)))
        (local.set $q (i32.add (local.get $q) (i32.const 1)))
        (br $one)))
    ;; the bits' last, partial word
    (if (i32.and (i32.eq (local.get $t) (i32.const 3)) (i32.ne (i32.and (local.get $q) (i32.const 31)) (i32.const 0)))
      (then (i32.store (local.get $o) (local.get $word))))
    (i32.add (local.get $bad)
      (i32.add (i32.add (i32x4.extract_lane 0 (local.get $cnt)) (i32x4.extract_lane 1 (local.get $cnt)))
        (i32.add (i32x4.extract_lane 2 (local.get $cnt)) (i32x4.extract_lane 3 (local.get $cnt))))))
)
