;; The SIMD pre-pass of the CSV parser (parser.ts): 32 bytes per step, it lists where fields end, so the
;; JavaScript state machine reads one offset per field instead of testing every byte.
;;
;; scan(src, len, delim, marks, ends) reads `len` bytes at `src` (a multiple of 32: the record data, padded
;; with the delimiter) and writes
;;   ends:  the offsets of the delimiters, LFs and CRs outside quotes, in order (where fields and records end),
;;          bit 31 set on line breaks; then `len` once more, with bit 31, as an end marker. Returns how many
;;          offsets came before the marker;
;;   marks: for each 32 bytes, three little-endian words with bit i for byte i: the delimiters, the quotes,
;;          and the LFs and CRs; between the quotes of a quoted field they tell what it holds besides text.
;; "Inside quotes" is the toggle model: every quote flips it (so "" inside a field flips twice). That is the
;; real grammar only while every quote stands where RFC 4180 puts one: an opening quote right after a
;; separator (or at the start), the byte after a closing quote a separator (or "" going on). The scan checks
;; exactly that and returns -1 at the first quote that breaks it (a stray quote in unquoted text, text after a
;; closing quote); the caller then parses those bytes without the list.
;;
;; `ends` needs room for len + 16 offsets: each step writes eight offsets whether or not it found as many
;; (the next step overwrites the extra ones), which spares a branch per step.
;;
;; scan-wasm.ts holds the assembled bytes: run `node scripts/build-scan-wasm.js` after changing this file.
(module
  (import "scan" "memory" (memory 1))
  (func (export "scan")
    (param $src i32) (param $len i32) (param $delim i32) (param $marks i32) (param $ends i32)
    (result i32)
    (local $at i32) (local $out i32) (local $more i32)
    (local $vq v128) (local $vd v128) (local $vlf v128) (local $vcr v128) (local $lo v128) (local $hi v128)
    (local $q i32) (local $d i32) (local $nl i32) (local $s i32) (local $mark i32) (local $x i32) (local $m i32) (local $count i32)
    (local $open i32) (local $close i32)
    (local $inside i32) (local $prevSep i32) (local $prevClose i32)
    (local $afterSep i32) (local $afterClose i32) (local $bit i32) (local $sep i32)
    (local.set $vq (i8x16.splat (i32.const 0x22)))
    (local.set $vd (i8x16.splat (local.get $delim)))
    (local.set $vlf (i8x16.splat (i32.const 0x0a)))
    (local.set $vcr (i8x16.splat (i32.const 0x0d)))
    (local.set $out (local.get $ends))
    ;; The data starts at a record start: as if right after a separator, outside quotes.
    (local.set $prevSep (i32.const 1))
    (block $done
      (loop $step
        (br_if $done (i32.ge_u (local.get $at) (local.get $len)))
        (local.set $lo (v128.load (i32.add (local.get $src) (local.get $at))))
        (local.set $hi (v128.load offset=16 (i32.add (local.get $src) (local.get $at))))
        (local.set $q
          (i32.or
            (i8x16.bitmask (i8x16.eq (local.get $lo) (local.get $vq)))
            (i32.shl (i8x16.bitmask (i8x16.eq (local.get $hi) (local.get $vq))) (i32.const 16))))
        (local.set $d
          (i32.or
            (i8x16.bitmask (i8x16.eq (local.get $lo) (local.get $vd)))
            (i32.shl (i8x16.bitmask (i8x16.eq (local.get $hi) (local.get $vd))) (i32.const 16))))
        (local.set $nl
          (i32.or
            (i8x16.bitmask
              (v128.or (i8x16.eq (local.get $lo) (local.get $vlf)) (i8x16.eq (local.get $lo) (local.get $vcr))))
            (i32.shl
              (i8x16.bitmask
                (v128.or (i8x16.eq (local.get $hi) (local.get $vlf)) (i8x16.eq (local.get $hi) (local.get $vcr))))
              (i32.const 16))))
        (local.set $s (i32.or (local.get $d) (local.get $nl)))
        ;; x: bit i set when byte i is inside quotes after it is read (prefix XOR of the quotes, carried over).
        (local.set $x (i32.xor (local.get $q) (i32.shl (local.get $q) (i32.const 1))))
        (local.set $x (i32.xor (local.get $x) (i32.shl (local.get $x) (i32.const 2))))
        (local.set $x (i32.xor (local.get $x) (i32.shl (local.get $x) (i32.const 4))))
        (local.set $x (i32.xor (local.get $x) (i32.shl (local.get $x) (i32.const 8))))
        (local.set $x (i32.xor (local.get $x) (i32.shl (local.get $x) (i32.const 16))))
        (local.set $x (i32.xor (local.get $x) (i32.sub (i32.const 0) (local.get $inside))))
        (local.set $inside (i32.shr_u (local.get $x) (i32.const 31)))
        (local.set $open (i32.and (local.get $q) (local.get $x)))
        (local.set $close (i32.and (local.get $q) (i32.xor (local.get $x) (i32.const -1))))
        ;; afterSep / afterClose: bit i set when byte i-1 is a separator / a closing quote.
        (local.set $afterSep (i32.or (i32.shl (local.get $s) (i32.const 1)) (local.get $prevSep)))
        (local.set $afterClose (i32.or (i32.shl (local.get $close) (i32.const 1)) (local.get $prevClose)))
        ;; An opening quote must follow a separator, or a closing quote ("" inside a field); the byte after
        ;; a closing quote must be a separator or an opening quote (the same "").
        (if
          (i32.or
            (i32.and (local.get $open)
              (i32.xor (i32.or (local.get $afterSep) (local.get $afterClose)) (i32.const -1)))
            (i32.and (local.get $afterClose)
              (i32.xor (i32.or (local.get $s) (local.get $open)) (i32.const -1))))
          (then (return (i32.const -1))))
        (local.set $prevSep (i32.shr_u (local.get $s) (i32.const 31)))
        (local.set $prevClose (i32.shr_u (local.get $close) (i32.const 31)))
        ;; The marks: three words per step, for the delimiters, the quotes and the line breaks.
        (local.set $mark (i32.add (local.get $marks) (i32.mul (i32.shr_u (local.get $at) (i32.const 5)) (i32.const 12))))
        (i32.store offset=0 (local.get $mark) (local.get $d))
        (i32.store offset=4 (local.get $mark) (local.get $q))
        (i32.store offset=8 (local.get $mark) (local.get $nl))
        ;; The separators outside quotes, as offsets: eight written at once, more only when there are.
        (local.set $m (i32.and (local.get $s) (i32.xor (local.get $x) (i32.const -1))))
        (local.set $count (i32.popcnt (local.get $m)))
        (local.set $bit (i32.ctz (local.get $m)))
        (i32.store offset=0 (local.get $out)
          (i32.add (local.get $at) (local.get $bit)))
        (local.set $m (i32.and (local.get $m) (i32.sub (local.get $m) (i32.const 1))))
        (local.set $bit (i32.ctz (local.get $m)))
        (i32.store offset=4 (local.get $out)
          (i32.add (local.get $at) (local.get $bit)))
        (local.set $m (i32.and (local.get $m) (i32.sub (local.get $m) (i32.const 1))))
        (local.set $bit (i32.ctz (local.get $m)))
        (i32.store offset=8 (local.get $out)
          (i32.add (local.get $at) (local.get $bit)))
        (local.set $m (i32.and (local.get $m) (i32.sub (local.get $m) (i32.const 1))))
        (local.set $bit (i32.ctz (local.get $m)))
        (i32.store offset=12 (local.get $out)
          (i32.add (local.get $at) (local.get $bit)))
        (local.set $m (i32.and (local.get $m) (i32.sub (local.get $m) (i32.const 1))))
        (local.set $bit (i32.ctz (local.get $m)))
        (i32.store offset=16 (local.get $out)
          (i32.add (local.get $at) (local.get $bit)))
        (local.set $m (i32.and (local.get $m) (i32.sub (local.get $m) (i32.const 1))))
        (local.set $bit (i32.ctz (local.get $m)))
        (i32.store offset=20 (local.get $out)
          (i32.add (local.get $at) (local.get $bit)))
        (local.set $m (i32.and (local.get $m) (i32.sub (local.get $m) (i32.const 1))))
        (local.set $bit (i32.ctz (local.get $m)))
        (i32.store offset=24 (local.get $out)
          (i32.add (local.get $at) (local.get $bit)))
        (local.set $m (i32.and (local.get $m) (i32.sub (local.get $m) (i32.const 1))))
        (local.set $bit (i32.ctz (local.get $m)))
        (i32.store offset=28 (local.get $out)
          (i32.add (local.get $at) (local.get $bit)))
        (if (i32.gt_u (local.get $count) (i32.const 8))
          (then
            (local.set $m (i32.and (local.get $m) (i32.sub (local.get $m) (i32.const 1))))
            (local.set $more (i32.add (local.get $out) (i32.const 32)))
            (loop $rest
              (local.set $bit (i32.ctz (local.get $m)))
              (i32.store (local.get $more)
                (i32.add (local.get $at) (local.get $bit)))
              (local.set $more (i32.add (local.get $more) (i32.const 4)))
              (local.set $m (i32.and (local.get $m) (i32.sub (local.get $m) (i32.const 1))))
              (br_if $rest (local.get $m)))))
        ;; The line breaks among them get bit 31 (about one step in four has one): entry number = how many
        ;; separators come before it in this step.
        (local.set $m (i32.and (local.get $nl) (i32.xor (local.get $x) (i32.const -1))))
        (if (local.get $m)
          (then
            (local.set $sep (i32.and (local.get $s) (i32.xor (local.get $x) (i32.const -1))))
            (loop $lines
              (local.set $more
                (i32.add (local.get $out)
                  (i32.shl
                    (i32.popcnt
                      (i32.and (local.get $sep)
                        (i32.sub (i32.shl (i32.const 1) (i32.ctz (local.get $m))) (i32.const 1))))
                    (i32.const 2))))
              (i32.store (local.get $more) (i32.or (i32.load (local.get $more)) (i32.const 0x80000000)))
              (local.set $m (i32.and (local.get $m) (i32.sub (local.get $m) (i32.const 1))))
              (br_if $lines (local.get $m)))))
        (local.set $out (i32.add (local.get $out) (i32.shl (local.get $count) (i32.const 2))))
        (local.set $at (i32.add (local.get $at) (i32.const 32)))
        (br $step)))
    (i32.store (local.get $out) (i32.or (local.get $len) (i32.const 0x80000000)))
    (i32.shr_u (i32.sub (local.get $out) (local.get $ends)) (i32.const 2))))
