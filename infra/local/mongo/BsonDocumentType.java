import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.wire.bson.BsonDecoder;
import de.bwaldvogel.mongo.wire.bson.BsonEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.Map;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;

/**
 * Stores a collection's documents in the MVStore as BSON. mongo-java-server's own H2 backend
 * leaves values to H2's ObjectDataType, which writes a Document with Java serialization: a
 * minute bucket took ~8.7 KB on disk, every read ran ObjectInputStream, and H2's cache budget
 * counted each page by a running average of serialized sizes, far below what the decoded
 * LinkedHashMaps hold on the heap. BSON is what the wire carries anyway (the same codec), and
 * {@link #getMemory} estimates the decoded size so the page cache's bound is a heap bound.
 */
final class BsonDocumentType extends BasicDataType<Document> {
  static final BsonDocumentType INSTANCE = new BsonDocumentType();

  private BsonDocumentType() {}

  @Override
  public int getMemory(Document document) {
    return (int) Math.min(Integer.MAX_VALUE, heapEstimate(document));
  }

  /** Bytes a decoded value holds on the heap, roughly (HotSpot, compressed oops). */
  static long heapEstimate(Object value) {
    if (value instanceof Map) {
      long bytes = 96;
      for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
        bytes += 56 + heapEstimate(entry.getKey()) + heapEstimate(entry.getValue());
      }
      return bytes;
    }
    if (value instanceof Collection) {
      long bytes = 40;
      for (Object element : (Collection<?>) value) {
        bytes += 8 + heapEstimate(element);
      }
      return bytes;
    }
    if (value instanceof String) {
      return 48 + ((String) value).length();
    }
    return 24;
  }

  /**
   * One encoding buffer per thread, reused: a fresh 256-byte buffer per document grew by doubling
   * through every hour bucket a commit wrote. One that grew past 1 MiB is not kept.
   */
  private static final ThreadLocal<ByteBuf> SCRATCH = ThreadLocal.withInitial(() -> Unpooled.buffer(64 * 1024));

  private static final int SCRATCH_KEPT = 1 << 20;

  private static ByteBuf encode(Document document) {
    ByteBuf out = SCRATCH.get();
    out.clear();
    BsonEncoder.encodeDocument(document, out);
    return out;
  }

  private static void release(ByteBuf out) {
    if (out.capacity() > SCRATCH_KEPT) {
      SCRATCH.remove();
    }
  }

  /** The document's BSON size (collStats' size). */
  static int encodedSize(Document document) {
    ByteBuf out = encode(document);
    int size = out.readableBytes();
    release(out);
    return size;
  }

  @Override
  public void write(WriteBuffer buffer, Document document) {
    ByteBuf out = encode(document);
    buffer.put(out.nioBuffer());
    release(out);
  }

  @Override
  public Document read(ByteBuffer buffer) {
    int length = Integer.reverseBytes(buffer.getInt(buffer.position()));
    ByteBuf in = Unpooled.wrappedBuffer(buffer.slice().limit(length));
    buffer.position(buffer.position() + length);
    return BsonDecoder.decodeBson(in);
  }

  @Override
  public Document[] createStorage(int size) {
    return new Document[size];
  }
}
