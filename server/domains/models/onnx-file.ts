/**
 * A first look at an uploaded ONNX file's bytes, before ONNX Runtime opens it: it must be a protobuf
 * ModelProto with a graph, and no tensor in it may keep its data in another file ("external data").
 * ONNX Runtime would read such a file from the server's disk, relative to its working directory (it
 * refuses absolute paths and `..`, but not `data/db` or `data/uploads/…`), and a model's outputs
 * could then carry what it read to whoever runs it. Only the wire format is read, field by field
 * (the ONNX schema's field numbers below), so no protobuf library is needed at run time.
 */

/** Why the bytes were refused. */
export type OnnxFileProblem = 'not_onnx' | 'external_data';

/** Field numbers of onnx.proto (v1.10+) that lead to tensors, by message. */
const TENSOR = 'tensor';
const SPARSE = 'sparse';
type Message = 'model' | 'training' | 'graph' | 'node' | 'attribute' | 'function' | typeof TENSOR | typeof SPARSE;

const CHILDREN: Record<Message, Readonly<Record<number, Message>>> = {
  // ModelProto: graph 7, training_info 20, functions 25.
  model: { 7: 'graph', 20: 'training', 25: 'function' },
  // TrainingInfoProto: initialization 1, algorithm 2.
  training: { 1: 'graph', 2: 'graph' },
  // GraphProto: node 1, initializer 5, sparse_initializer 15.
  graph: { 1: 'node', 5: TENSOR, 15: SPARSE },
  // NodeProto: attribute 5.
  node: { 5: 'attribute' },
  // AttributeProto: t 5, g 6, tensors 10, graphs 11, sparse_tensor 22, sparse_tensors 23.
  attribute: { 5: TENSOR, 6: 'graph', 10: TENSOR, 11: 'graph', 22: SPARSE, 23: SPARSE },
  // FunctionProto: node 7, attribute_proto 11.
  function: { 7: 'node', 11: 'attribute' },
  // TensorProto: its own fields are checked (below).
  tensor: {},
  // SparseTensorProto: values 1, indices 2.
  sparse: { 1: TENSOR, 2: TENSOR },
};

/** TensorProto.external_data (13) and data_location (14; 1 = EXTERNAL). */
const EXTERNAL_DATA_FIELD = 13;
const DATA_LOCATION_FIELD = 14;
const DATA_LOCATION_EXTERNAL = 1;
const GRAPH_FIELD = 7;

/** Deeper than this (graphs inside attributes inside graphs …) is refused rather than followed. */
const MAX_DEPTH = 100;

class Malformed extends Error {}

/** Reads a varint at `offset`; answers its value (exact up to 2^53) and the offset after it. */
function varint(bytes: Uint8Array, offset: number): [number, number] {
  let value = 0;
  let multiplier = 1;
  for (let at = offset; at < offset + 10; at += 1) {
    const byte = bytes[at];
    if (byte === undefined) throw new Malformed();
    value += (byte & 0x7f) * multiplier;
    multiplier *= 128;
    if ((byte & 0x80) === 0) return [value, at + 1];
  }
  throw new Malformed();
}

/** Walks one message in bytes[start, end); throws Malformed or answers whether a tensor keeps external data. */
function hasExternalData(bytes: Uint8Array, start: number, end: number, message: Message, depth: number): boolean {
  if (depth > MAX_DEPTH) throw new Malformed();
  let offset = start;
  while (offset < end) {
    const [tag, afterTag] = varint(bytes, offset);
    const field = Math.floor(tag / 8);
    const wireType = tag % 8;
    if (field === 0) throw new Malformed();
    offset = afterTag;
    if (wireType === 0) {
      const [value, after] = varint(bytes, offset);
      if (message === TENSOR && field === DATA_LOCATION_FIELD && value === DATA_LOCATION_EXTERNAL) return true;
      offset = after;
    } else if (wireType === 1) {
      offset += 8;
    } else if (wireType === 5) {
      offset += 4;
    } else if (wireType === 2) {
      const [length, after] = varint(bytes, offset);
      const childEnd = after + length;
      if (childEnd > end) throw new Malformed();
      if (message === TENSOR && field === EXTERNAL_DATA_FIELD) return true;
      const child = CHILDREN[message][field];
      if (child && hasExternalData(bytes, after, childEnd, child, depth + 1)) return true;
      offset = childEnd;
    } else {
      // Groups (3, 4) are not used by onnx.proto; 6 and 7 do not exist.
      throw new Malformed();
    }
    if (offset > end) throw new Malformed();
  }
  return false;
}

/** Whether the ModelProto in the bytes has a graph (field 7), read at its top level only. */
function hasGraph(bytes: Uint8Array): boolean {
  let offset = 0;
  while (offset < bytes.length) {
    const [tag, afterTag] = varint(bytes, offset);
    const field = Math.floor(tag / 8);
    const wireType = tag % 8;
    offset = afterTag;
    if (wireType === 2) {
      const [length, after] = varint(bytes, offset);
      if (field === GRAPH_FIELD && length > 0) return true;
      offset = after + length;
    } else if (wireType === 0) offset = varint(bytes, offset)[1];
    else offset += wireType === 1 ? 8 : 4;
  }
  return false;
}

/** What is wrong with the bytes as a self-contained ONNX model, or null when nothing is. */
export function onnxFileProblem(bytes: Uint8Array): OnnxFileProblem | null {
  try {
    if (hasExternalData(bytes, 0, bytes.length, 'model', 0)) return 'external_data';
    return hasGraph(bytes) ? null : 'not_onnx';
  } catch (error) {
    if (error instanceof Malformed) return 'not_onnx';
    throw error;
  }
}
