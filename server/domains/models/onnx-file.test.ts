import onnxProto from 'onnx-proto';
import { describe, expect, it } from 'vitest';
import { tinyColourClassifier } from '../../../tests/support/onnx-model';
import { onnxFileProblem } from './onnx-file';

const { onnx } = onnxProto;

/** A model whose only tensor is a Constant node's value inside an If node's branch: external data at depth. */
function nestedExternalTensor(): Uint8Array {
  const tensor = { name: 'value', dataType: onnx.TensorProto.DataType.FLOAT, dims: [1], dataLocation: onnx.TensorProto.DataLocation.EXTERNAL, externalData: [{ key: 'location', value: 'data/db' }] };
  const branch = { name: 'branch', node: [{ opType: 'Constant', output: ['c'], attribute: [{ name: 'value', type: onnx.AttributeProto.AttributeType.TENSOR, t: tensor }] }], output: [{ name: 'c' }] };
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 13 }],
    graph: {
      name: 'outer',
      node: [{ opType: 'If', input: ['condition'], output: ['out'], attribute: [{ name: 'then_branch', type: onnx.AttributeProto.AttributeType.GRAPH, g: branch }] }],
      input: [{ name: 'condition' }],
      output: [{ name: 'out' }],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

describe('onnxFileProblem', () => {
  it('passes a self-contained model', () => {
    expect(onnxFileProblem(tinyColourClassifier())).toBeNull();
  });

  it('finds external data in an initializer and in a tensor nested in a subgraph', () => {
    expect(onnxFileProblem(tinyColourClassifier({ externalWeights: 'weights.bin' }))).toBe('external_data');
    expect(onnxFileProblem(nestedExternalTensor())).toBe('external_data');
  });

  it('refuses bytes that are not a ModelProto with a graph: empty, cut short, text, a model without graph', () => {
    const whole = tinyColourClassifier();
    expect(onnxFileProblem(new Uint8Array())).toBe('not_onnx');
    expect(onnxFileProblem(whole.subarray(0, whole.length - 7))).toBe('not_onnx');
    expect(onnxFileProblem(new TextEncoder().encode('{"not": "a model"}'))).toBe('not_onnx');
    expect(onnxFileProblem(onnx.ModelProto.encode(onnx.ModelProto.create({ irVersion: 8 })).finish())).toBe('not_onnx');
  });
});
