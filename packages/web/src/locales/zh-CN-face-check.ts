// zh-CN of the face-recognition control and its check (issue 44; docs/decisions/0123). Joined into zh-CN-workbench.ts under `faceCheck`.
export const zhCNFaceCheck = {
  title: '人脸识别',
};
