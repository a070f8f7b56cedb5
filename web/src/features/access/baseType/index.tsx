// Placeholder until the page is built (issue 18).
export { default } from '../../common/NotReadyPage';
