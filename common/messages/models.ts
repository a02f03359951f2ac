/**
 * Messages of the image models (issue 17): the built-in analyses, the company's own ONNX classifiers
 * (upload, listing, deletion, the file) and analyse_image. The spec names none of these calls; the
 * checks speak of the fields as the calls spell them.
 */

/** Largest ONNX file an Admin may upload (a MobileNet-sized classifier is 5 to 20 MB); above it the upload answers 413. */
export const AI_MODEL_MAX_BYTES = 64 * 1024 * 1024;
/** Largest input side a model may ask for: the tensor is made on a tablet, in its memory. */
export const AI_MODEL_MAX_INPUT_SIDE = 1024;
/** Most labels a model may have. */
export const AI_MODEL_MAX_LABELS = 1000;

export const modelMessages = {
  // Built-in analyses: image analysis, named and described as what they are (not trained classifiers).
  leafColourName: 'Leaf colour analysis',
  leafColourDescription:
    'Built in, no download. Measures the shares of chlorotic (yellowing), necrotic (brown) and powdery-white leaf area in the photo and lists the catalogue problems that show those colours. Colour analysis, not a trained disease classifier.',
  stickyTrapName: 'Sticky-trap counter',
  stickyTrapDescription:
    'Built in, no download. Finds a yellow or blue sticky trap in the photo and counts the insects on it by size class (thrips-sized, whitefly/aphid-sized, gnat/fly-sized), marking each one. Image analysis, not a trained classifier.',

  // Upload checks.
  companyIdRequired: 'company_id is required.',
  modelIdRequired: 'model_id is required.',
  nameRequired: 'name is required (at most 100 characters).',
  nameWithoutLetters: 'name must contain at least one letter from a to z or a digit: the model’s key is made of them.',
  descriptionInvalid: 'description may hold at most 2000 characters.',
  labelsRequired: 'labels is required: a JSON list such as [{"label": "healthy", "problem_slug": null}].',
  labelsInvalid: `labels must be a JSON list of 1 to ${AI_MODEL_MAX_LABELS} entries, each {"label": text of 1 to 100 characters, "problem_slug": a catalogue problem's slug or null}.`,
  labelsRepeated: (label: string) => `The label "${label}" is given twice.`,
  problemSlugUnknown: (slug: string) => `"${slug}" is not a problem of the catalogue.`,
  layoutInvalid: 'layout must be NCHW or NHWC.',
  sideInvalid: `width and height must be whole numbers from 1 to ${AI_MODEL_MAX_INPUT_SIDE}.`,
  meanInvalid: 'mean must be three numbers (red, green, blue), as a JSON list or separated by commas.',
  stdInvalid: 'std must be three positive numbers (red, green, blue), as a JSON list or separated by commas.',
  fileRequired: 'An ONNX model file is required (field "model").',

  // What is wrong with the file itself.
  notOnnx: 'The file is not an ONNX model: it could not be read as one.',
  externalData: 'The model keeps its weights in separate files (ONNX external data). Upload a model with its weights inside the one file.',
  notOpened: (reason: string) => `The model could not be opened by ONNX Runtime: ${reason}`,
  inputCount: (count: number) => `The model has ${count} inputs; an image classifier has exactly one (the image).`,
  inputNotFloat: (type: string) => `The model's input is of type ${type}; it must be float32.`,
  inputNotImage: (shape: string) => `The model's input has the shape [${shape}]; it must be an image of 1 × 3 × height × width (NCHW) or 1 × height × width × 3 (NHWC).`,
  layoutUnknown: 'The model’s input shape does not say where the colour channels are: give layout (NCHW or NHWC).',
  layoutDisagrees: (layout: string, shape: string) => `layout ${layout} does not match the model's input shape [${shape}].`,
  sizeUnknown: 'The model’s input size is not fixed: give width and height.',
  sizeDisagrees: (width: number, height: number) => `The model's input is ${width} × ${height}; width and height, when given, must match it.`,
  inputTooLarge: (width: number, height: number) => `The model's input is ${width} × ${height}; at most ${AI_MODEL_MAX_INPUT_SIDE} × ${AI_MODEL_MAX_INPUT_SIDE} is supported.`,
  noFloatOutput: 'The model has no float32 output to read the labels’ scores from.',
  labelCountMismatch: (outputs: number, labels: number) => `The model has ${outputs} outputs but ${labels} labels were given.`,
  runFailed: (reason: string) => `The model did not run on a test image: ${reason}`,
  uploadRace: 'Another version of this model was being uploaded at the same time. Please upload again.',

  // Other calls.
  notFound: 'AI model not found.',
  unknownModel: (key: string) => `There is no AI model "${key}" for this company.`,
  imageUnreadable: 'The image could not be read: it is damaged or not a PNG, JPEG or WebP image.',

  uploaded: (name: string, version: number) => `AI model ${name} uploaded (version ${version}).`,
  deleted: (name: string) => `AI model ${name} deleted.`,
  analysed: 'Image analysed.',
} as const;

/** The browser's fallbacks for the models' calls and the tablet's classifier. */
export const modelClientMessages = {
  fileFetchFailed: 'Could not download the AI model. Connect once to fetch it; it then works offline.',
  runtimeFailed: 'The AI model could not run on this tablet.',
  labelCountMismatch: (outputs: number, labels: number) => `The model gave ${outputs} scores for ${labels} labels.`,
  uploadFailed: 'Could not upload the AI model.',
  deleteFailed: 'Could not delete the AI model.',
  onlineOnly: 'Uploading and deleting AI models needs a connection.',
} as const;
