package io.lancecodec.codec.pcodec;

import static io.lancecodec.spi.LanceCodecException.check;

/**
 * Reads a standalone pco file: header, then chunks of one page each, then the terminator byte.
 * Every length read from the input is checked against the bits present before it sizes an
 * allocation; numbers go to a {@link NumberSink} batch by batch.
 */
final class PcoDecoder {
  private PcoDecoder() {}

  /** What the header says, for callers that want to look before decoding. */
  static final class Header {
    final int standaloneVersion;
    final NumberType uniformType;
    final long nHint;
    final int formatMajor;
    final int formatMinor;

    Header(int standaloneVersion, NumberType uniformType, long nHint, int formatMajor, int formatMinor) {
      this.standaloneVersion = standaloneVersion;
      this.uniformType = uniformType;
      this.nHint = nHint;
      this.formatMajor = formatMajor;
      this.formatMinor = formatMinor;
    }
  }

  static Header readHeader(BitReader r) {
    r.need(8L * PcoFormat.MAGIC.length, "magic");
    for (byte m : PcoFormat.MAGIC) {
      check(r.readAlignedByte("magic") == (m & 0xFF), "pcodec: input does not start with the magic \"pco!\"");
    }
    int version = r.readAlignedByte("standalone version");
    NumberType uniform = null;
    long nHint = 0;
    if (version < 2) {
      // Versions 0 and 1 had no standalone version byte: this byte is already the format version.
      r.bitPos -= 8;
    } else {
      check(version <= PcoFormat.STANDALONE_VERSION,
          "pcodec: standalone version " + version + " is newer than the supported " + PcoFormat.STANDALONE_VERSION);
      if (version >= 3) {
        int code = r.readAlignedByte("uniform number type");
        if (code != 0) {
          uniform = NumberType.ofCode(code);
          check(uniform != null, "pcodec: unknown uniform number type byte " + code);
        }
      }
      r.need(PcoFormat.N_HINT_POWER_BITS, "n hint");
      int power = 1 + r.readInt(PcoFormat.N_HINT_POWER_BITS);
      r.need(power, "n hint");
      nHint = r.readWide(power);
      r.alignZeros("n hint");
    }
    int major = r.readAlignedByte("format version");
    int minor = major >= 4 ? r.readAlignedByte("format minor version") : 0;
    // A newer minor version might still decode; a newer major version cannot.
    check(major <= PcoFormat.FORMAT_MAJOR,
        "pcodec: format version " + major + "." + minor + " is newer than the supported "
            + PcoFormat.FORMAT_MAJOR + "." + PcoFormat.FORMAT_MINOR);
    return new Header(version, uniform, nHint, major, minor);
  }

  /** Decodes every chunk into {@code sink}; returns the number count. */
  static long decode(byte[] src, int off, int len, NumberSink sink) {
    BitReader r = new BitReader(src, off, len);
    Header h = readHeader(r);
    NumberType expected = sink.type;
    check(h.uniformType == null || h.uniformType == expected,
        "pcodec: the file holds " + name(h.uniformType) + " numbers, not " + name(expected));
    while (true) {
      int code = r.readAlignedByte("chunk number type or terminator");
      if (code == PcoFormat.TERMINATOR) {
        break;
      }
      NumberType type = NumberType.ofCode(code);
      check(type != null, "pcodec: unknown chunk number type byte " + code);
      check(h.uniformType == null || type == h.uniformType,
          "pcodec: chunk of " + name(type) + " in a file of " + name(h.uniformType));
      check(type == expected, "pcodec: chunk of " + name(type) + " numbers, not " + name(expected));
      r.need(PcoFormat.CHUNK_N_BITS, "chunk count");
      int n = 1 + r.readInt(PcoFormat.CHUNK_N_BITS);
      sink.admit(n);
      ChunkMeta meta = ChunkMeta.read(r, h.formatMajor, type);
      decodePage(r, meta, n, sink);
    }
    check(r.bitPos == r.endBit, "pcodec: " + (r.endBit - r.bitPos) / 8 + " bytes after the terminator");
    return sink.count;
  }

  private static String name(NumberType t) {
    return t == null ? "no" : t.name().toLowerCase(java.util.Locale.ROOT);
  }

  private static long[] readState(BitReader r, int stateN, int bits, String what) {
    r.need((long) stateN * bits, what);
    long[] state = new long[stateN];
    for (int i = 0; i < stateN; i++) {
      state[i] = r.readWide(bits);
    }
    return state;
  }

  private static void readAnsStates(BitReader r, LatentDecoder d, String what) {
    r.need(4L * d.ansSizeLog, what);
    d.readPageStates(r);
  }

  static void decodePage(BitReader r, ChunkMeta meta, int n, NumberSink sink) {
    LatentDecoder deltaVar = meta.deltaVar == null ? null : new LatentDecoder(meta.deltaVar);
    LatentDecoder primary = new LatentDecoder(meta.primary);
    LatentDecoder secondary = meta.secondary == null ? null : new LatentDecoder(meta.secondary);
    DeltaDecoder primaryDelta = new DeltaDecoder(meta.delta, meta.primary.bits);
    DeltaDecoder secondaryDelta = secondary == null ? null : new DeltaDecoder(meta.delta.forSecondary(), meta.secondary.bits);

    if (deltaVar != null) {
      readAnsStates(r, deltaVar, "lookback tANS states");
    }
    long[] primaryState = readState(r, primaryDelta.stateN, primary.bits, "primary delta state");
    readAnsStates(r, primary, "primary tANS states");
    long[] secondaryState = null;
    if (secondary != null) {
      secondaryState = readState(r, secondaryDelta.stateN, secondary.bits, "secondary delta state");
      readAnsStates(r, secondary, "secondary tANS states");
    }
    r.alignZeros("page metadata");

    int primaryBody = Math.max(0, n - primaryDelta.stateN);
    primary.requireBinsFor(primaryBody, "primary variable");
    if (deltaVar != null) {
      deltaVar.requireBinsFor(primaryBody, "lookback variable");
    }
    primaryDelta.startPage(primaryState, n);
    if (secondary != null) {
      secondary.requireBinsFor(Math.max(0, n - secondaryDelta.stateN), "secondary variable");
      secondaryDelta.startPage(secondaryState, n);
    }

    long[] lookbacks = deltaVar == null ? null : deltaVar.latents;
    int remaining = n;
    while (remaining > 0) {
      int len = Math.min(PcoFormat.BATCH_N, remaining);
      int kPrimary = Math.max(0, Math.min(len, remaining - primaryDelta.stateN));
      if (deltaVar != null) {
        deltaVar.readBatch(r, kPrimary);
        r.checkInBounds("lookback batch");
      }
      primary.readBatch(r, kPrimary);
      r.checkInBounds("primary batch");
      primaryDelta.decode(primary.latents, len, kPrimary, lookbacks);
      long[] secondaryLatents = null;
      if (secondary != null) {
        int kSecondary = Math.max(0, Math.min(len, remaining - secondaryDelta.stateN));
        secondary.readBatch(r, kSecondary);
        r.checkInBounds("secondary batch");
        secondaryDelta.decode(secondary.latents, len, kSecondary, lookbacks);
        secondaryLatents = secondary.latents;
      }
      ModeJoin.join(meta.mode, meta.type, primary.latents, secondaryLatents, len);
      sink.accept(primary.latents, len);
      remaining -= len;
    }
    r.alignZeros("page");
  }
}
