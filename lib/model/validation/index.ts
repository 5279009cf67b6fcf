// Kubernetes' own syntax rules for names and labels live with the manifest contract (lib/graph),
// which checks loaded objects with them; they are part of this validation layer too.
export {
  dnsLabelProblems,
  dnsSubdomainProblems,
  labelKeyProblems,
  labelValueProblems,
  labelsProblems,
  shown,
} from '../../graph';
export * from './check';
export * from './construct-id';
export * from './image';
export * from './known-keys';
export * from './placement';
export * from './port';
export * from './props';
export * from './quantity';
export * from './range';
export * from './reserved-namespace';
export * from './single-line';
export * from './secret-material';
