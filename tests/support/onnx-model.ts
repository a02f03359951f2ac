/**
 * A tiny ONNX image classifier built in code (onnx-proto), for tests of the company's own models on the
 * server and in Chromium: no file to keep, no model hub. It averages each colour channel of the image
 * (GlobalAveragePool) and multiplies the three averages by a fixed matrix, so its answer is known:
 * with the default weights, class c's logit is 10 × the mean of channel c (0 red, 1 green, 2 blue), so a
 * mostly green image gives class 1 first.
 */
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;
const FLOAT = onnx.TensorProto.DataType.FLOAT;

export interface TinyClassifierOptions {
  /** The image input's layout: [1, 3, H, W] (default) or [1, H, W, 3]. */
  layout?: 'NCHW' | 'NHWC';
  /** The input's height and width (default 8); `null`: symbolic dimensions ('height', 'width'). */
  size?: number | null;
  /** Output classes (default 3): class c gets 10 × channel c's mean when c < 3, else 0. */
  classes?: number;
  /** End with a Softmax, so the outputs are already probabilities (default: raw logits). */
  softmax?: boolean;
  /** The weights as given here, one row per channel (r, g, b) of `classes` numbers; overrides the default. */
  weights?: number[][];
  /**
   * WARNING: for refusal tests only. Stores the weights outside the file ("external data") at this
   * location, which a runtime would read from its disk.
   */
  externalWeights?: string;
}

const dimension = (value: number | string) => (typeof value === 'number' ? { dimValue: value } : { dimParam: value });

function tensorType(shape: Array<number | string>) {
  return { tensorType: { elemType: FLOAT, shape: { dim: shape.map(dimension) } } };
}

/** The ONNX bytes of the classifier. */
export function tinyColourClassifier(options: TinyClassifierOptions = {}): Uint8Array {
  const layout = options.layout ?? 'NCHW';
  const classes = options.classes ?? 3;
  const size = options.size === undefined ? 8 : options.size;
  const height = size ?? 'height';
  const width = size ?? 'width';
  const weights = options.weights ?? [0, 1, 2].map((channel) => Array.from({ length: classes }, (_, column) => (column === channel ? 10 : 0)));

  const nodes = [];
  let image = 'image';
  if (layout === 'NHWC') {
    nodes.push({ opType: 'Transpose', input: ['image'], output: ['channels_first'], attribute: [{ name: 'perm', type: onnx.AttributeProto.AttributeType.INTS, ints: [0, 3, 1, 2] }] });
    image = 'channels_first';
  }
  nodes.push({ opType: 'GlobalAveragePool', input: [image], output: ['pooled'] });
  nodes.push({ opType: 'Flatten', input: ['pooled'], output: ['means'], attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 1 }] });
  nodes.push({ opType: 'MatMul', input: ['means', 'weights'], output: options.softmax ? ['logits'] : ['scores'] });
  if (options.softmax) nodes.push({ opType: 'Softmax', input: ['logits'], output: ['scores'], attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 1 }] });

  const weightTensor = options.externalWeights
    ? {
        name: 'weights',
        dataType: FLOAT,
        dims: [3, classes],
        dataLocation: onnx.TensorProto.DataLocation.EXTERNAL,
        externalData: [
          { key: 'location', value: options.externalWeights },
          { key: 'offset', value: '0' },
          { key: 'length', value: String(3 * classes * 4) },
        ],
      }
    : { name: 'weights', dataType: FLOAT, dims: [3, classes], floatData: weights.flat() };

  const inputShape = layout === 'NCHW' ? [1, 3, height, width] : [1, height, width, 3];
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'growroom-tests',
    opsetImport: [{ domain: '', version: 13 }],
    graph: {
      name: 'tiny_colour_classifier',
      node: nodes,
      initializer: [weightTensor],
      input: [{ name: 'image', type: tensorType(inputShape) }],
      output: [{ name: 'scores', type: tensorType([1, classes]) }],
    },
  });
  // A plain Uint8Array (protobufjs answers a Buffer on Node): the same bytes in Node and in a page.
  return new Uint8Array(onnx.ModelProto.encode(model).finish());
}

/**
 * A small convolutional classifier with random weights, for timing only (bench/vision.ts): four 3×3
 * convolutions of stride 2 (32, 64, 128 and 256 channels, each with a ReLU) over a 224 × 224 RGB
 * input, a global average pool and a dense layer to `classes` scores (38, as a plant disease data
 * set's). About 185 million multiply-adds per image, the order of a mobile image classifier's
 * (MobileNetV2: 300 million), so its time per image stands for a company's real model.
 */
export function smallConvClassifier(classes = 38, seed = 7): Uint8Array {
  let state = seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648 - 0.5;
  };
  const weights = (name: string, dims: number[]) => {
    const count = dims.reduce((product, dim) => product * dim, 1);
    const scale = Math.sqrt(2 / (count / dims[0]!));
    return { name, dataType: FLOAT, dims, floatData: Array.from({ length: count }, () => random() * scale) };
  };
  const ints = (name: string, values: number[]) => ({ name, type: onnx.AttributeProto.AttributeType.INTS, ints: values });
  const channels = [3, 32, 64, 128, 256];
  const nodes = [];
  const initializer = [];
  let previous = 'image';
  for (let layer = 1; layer < channels.length; layer += 1) {
    initializer.push(weights(`conv${layer}_w`, [channels[layer]!, channels[layer - 1]!, 3, 3]));
    nodes.push({ opType: 'Conv', input: [previous, `conv${layer}_w`], output: [`conv${layer}`], attribute: [ints('kernel_shape', [3, 3]), ints('strides', [2, 2]), ints('pads', [1, 1, 1, 1])] });
    nodes.push({ opType: 'Relu', input: [`conv${layer}`], output: [`relu${layer}`] });
    previous = `relu${layer}`;
  }
  nodes.push({ opType: 'GlobalAveragePool', input: [previous], output: ['pooled'] });
  nodes.push({ opType: 'Flatten', input: ['pooled'], output: ['features'], attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 1 }] });
  initializer.push(weights('dense_w', [channels.at(-1)!, classes]));
  nodes.push({ opType: 'MatMul', input: ['features', 'dense_w'], output: ['scores'] });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'growroom-bench',
    opsetImport: [{ domain: '', version: 13 }],
    graph: {
      name: 'small_conv_classifier',
      node: nodes,
      initializer,
      input: [{ name: 'image', type: tensorType([1, 3, 224, 224]) }],
      output: [{ name: 'scores', type: tensorType([1, classes]) }],
    },
  });
  return new Uint8Array(onnx.ModelProto.encode(model).finish());
}
