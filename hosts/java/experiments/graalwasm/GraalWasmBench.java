import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.io.ByteSequence;

/** GraalWasm experiment (hosts/java/README.md, "GraalWasm"): ref-02 png through the raw ABI, by hand. */
public class GraalWasmBench {
    public static void main(String[] args) throws Exception {
        long t0 = System.nanoTime();
        byte[] wasm = Files.readAllBytes(Path.of(args[0]));
        int warmup = Integer.parseInt(args[1]), calls = Integer.parseInt(args[2]);
        Context ctx = Context.newBuilder("wasm").build();
        Source src = Source.newBuilder("wasm", ByteSequence.create(wasm), "qrglue").build();
        Value module = ctx.eval(src);
        Value inst = module.newInstance();
        Value exports = inst.getMember("exports");
        Value alloc = exports.getMember("qr_alloc"), png = exports.getMember("qr_png"), free = exports.getMember("qr_free");
        Value memory = exports.getMember("memory");
        byte[] text = "https://www.reddit.com/r/rustjerk/top/?t=all".getBytes();
        java.util.function.Supplier<byte[]> call = () -> {
            int ptr = alloc.execute(text.length).asInt();
            for (int i = 0; i < text.length; i++) memory.writeBufferByte(ptr + i, text[i]);
            int rec = png.execute(ptr, text.length, 0, 200, 4, 0, 0, 0x000000ff, -1, 0, 0, 0, 0).asInt();
            int status = memory.readBufferInt(ByteOrder.LITTLE_ENDIAN, rec);
            int p = memory.readBufferInt(ByteOrder.LITTLE_ENDIAN, rec + 4);
            int n = memory.readBufferInt(ByteOrder.LITTLE_ENDIAN, rec + 8);
            byte[] out = new byte[n];
            memory.readBuffer(p, out, 0, n);
            free.execute(rec);
            if (status != 0) throw new IllegalStateException("status " + status);
            return out;
        };
        byte[] first = call.get();
        long firstNs = System.nanoTime() - t0;
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(first));
        for (int i = 0; i < warmup; i++) call.get();
        long[] ns = new long[calls];
        for (int i = 0; i < calls; i++) { long s = System.nanoTime(); call.get(); ns[i] = System.nanoTime() - s; }
        Arrays.sort(ns);
        System.out.printf("sha256 %s (%d B), load+first call %.0f ms, steady median %.0f us (p10 %.0f, p90 %.0f) after %d warm-up%n",
            sha.substring(0, 12), first.length, firstNs / 1e6, ns[calls / 2] / 1e3, ns[calls / 10] / 1e3, ns[calls * 9 / 10] / 1e3, warmup);
    }
}
